// Acceptance test of #37: gitea-js calls every GET method of the people, organization, team, settings,
// rendering, template, administration, notification, topic and package areas on existing objects, and each
// answers 2xx. The methods are found from the client object (tests/helpers/giteaJs.ts), so one gitea-js has
// and this file does not call (or skip, with the reason) fails the test.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newBadge } from '../helpers/badges.js';
import { assertEveryMethod, clientMethods, expect2xx, giteaJs, type GiteaJs } from '../helpers/giteaJs.js';
import { addGpgKey, gpgPair } from '../helpers/gpg.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { keyPair } from '../helpers/keys.js';
import { actor, fresh, type Actor } from '../helpers/orgs.js';
import { publishGeneric } from '../helpers/packages.js';
import { makeFolder } from '../helpers/unadopted.js';

const namespaces = ['user', 'users', 'org', 'orgs', 'teams', 'admin', 'settings', 'markdown', 'markup', 'gitignore', 'label',
  'licenses', 'signingKeyGpg', 'nodeinfo', 'activitypub', 'version', 'notifications', 'topics', 'packages'] as const;

const skipped: Record<string, string> = {
  getSigningKey: '404 without SIGNING_KEY (unset here), as Gitea without a key; integration/commitSigning configures one',
  getNodeInfo: '404 by design: Gitea serves NodeInfo only with federation enabled; anvil has no federation',
  activitypubPerson: '404 by design: Gitea serves ActivityPub only with federation enabled; anvil has no federation',
};

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app?.close();
});

interface World {
  me: Actor; friend: Actor; blocked: Actor; orgBlocked: Actor; visitor: Actor;
  org: string; repo: string; orgRepo: string; ownersTeam: number; issue: number;
  gpgKeyId: number; keyId: number; hookId: number; orgHookId: number; adminHookId: number; orgLabelId: number;
  oauthAppId: number; thread: string; pkg: { name: string; version: string }; topic: string;
}

/** Every object a GET below reads, made through gitea-js where it can make it. */
async function world(): Promise<World> {
  const [me, friend, blocked, orgBlocked, visitor] = await Promise.all([actor(app), actor(app), actor(app), actor(app), actor(app)]);
  const admin = giteaJs(app, await app.token(app.admin, ['all']));
  const api = giteaJs(app, me.auth);
  const ok = expect2xx;
  const hook = { type: 'gitea' as const, config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, events: ['push'], active: true };

  const repo = fresh('repo');
  await ok('createCurrentUserRepo', api.user.createCurrentUserRepo({ name: repo, auto_init: true }));
  const org = fresh('org');
  await ok('orgCreate', api.orgs.orgCreate({ username: org, visibility: 'public' }));
  const orgRepo = fresh('orepo');
  await ok('createOrgRepo', api.orgs.createOrgRepo(org, { name: orgRepo, auto_init: true }));
  const teams = await ok<Array<{ id: number; name: string }>>('orgListTeams', api.orgs.orgListTeams(org));
  const ownersTeam = teams.find((t) => t.name === 'Owners')!.id;
  await ok('orgPublicizeMember', api.orgs.orgPublicizeMember(org, me.username));

  await ok('userCurrentPutFollow', api.user.userCurrentPutFollow(friend.username));
  await ok('userCurrentPutFollow (friend)', giteaJs(app, friend.auth).user.userCurrentPutFollow(me.username));
  await ok('userBlockUser', api.user.userBlockUser(blocked.username));
  await ok('organizationBlockUser', api.orgs.organizationBlockUser(org, orgBlocked.username));
  await ok('userAddEmail', api.user.userAddEmail({ emails: [`${fresh('second')}@example.com`] }));
  const key = await ok<{ id: number }>('userCurrentPostKey', api.user.userCurrentPostKey({ key: keyPair().public, title: 'laptop' }));
  const gpg = await addGpgKey(app, me, await gpgPair(me.email));
  const userHook = await ok<{ id: number }>('userCreateHook', api.user.userCreateHook(hook));
  const orgHook = await ok<{ id: number }>('orgCreateHook', api.orgs.orgCreateHook(org, hook));
  const adminHook = await ok<{ id: number }>('adminCreateHook', admin.admin.adminCreateHook(hook));
  const label = await ok<{ id: number }>('orgCreateLabel', api.orgs.orgCreateLabel(org, { name: 'bug', color: '#ee0701' }));
  await ok('updateOrgSecret', api.orgs.updateOrgSecret(org, 'DEPLOY_KEY', { data: 'secret' }));
  await ok('createOrgVariable', api.orgs.createOrgVariable(org, 'REGION', { value: 'eu' }));
  await ok('createUserVariable', api.user.createUserVariable('THEME', { value: 'dark' }));
  const oauth = await ok<{ id: number }>('userCreateOAuth2Application',
    api.user.userCreateOAuth2Application({ name: 'ci', redirect_uris: ['https://ci.example.com/cb'], confidential_client: true }));
  await ok('userCurrentPutStar', api.user.userCurrentPutStar(org, orgRepo));
  const topic = fresh('topic');
  await ok('repoAddTopic', api.repos.repoAddTopic(me.username, repo, topic));

  // A thread in my notifications: someone opens an issue in my repository, which I watch.
  const issue = await ok<{ number: number }>('issueCreateIssue', giteaJs(app, visitor.auth).repos.issueCreateIssue(me.username, repo, { title: 'hello' }));
  await ok('issueStartStopWatch', api.repos.issueStartStopWatch(me.username, repo, issue.number));
  await ok('issueAddTime', api.repos.issueAddTime(me.username, repo, issue.number, { time: 120 }));
  const threads = await ok<Array<{ id: number }>>('notifyGetList', api.notifications.notifyGetList());
  assert.ok(threads.length > 0, 'the issue made a notification thread');

  const slug = await newBadge(app);
  await ok('adminAddUserBadges', admin.admin.adminAddUserBadges(me.username, { badge_slugs: [slug] }));
  const pkg = await publishGeneric(app, me, me.username);
  makeFolder(app, me.username, fresh('loose'));

  return {
    me, friend, blocked, orgBlocked, visitor, org, repo, orgRepo, ownersTeam, issue: issue.number, gpgKeyId: gpg.id, keyId: key.id,
    hookId: userHook.id, orgHookId: orgHook.id, adminHookId: adminHook.id, orgLabelId: label.id, oauthAppId: oauth.id,
    thread: String(threads[0]!.id), pkg, topic,
  };
}

function getCalls(w: World, api: GiteaJs, admin: GiteaJs, basicApi: GiteaJs): Record<string, () => Promise<unknown>> {
  const me = w.me.username;
  return {
    // user: the caller's own things
    userGetCurrent: () => api.user.userGetCurrent(),
    userGetRunnerRegistrationToken: () => api.user.userGetRunnerRegistrationToken(),
    getUserVariablesList: () => api.user.getUserVariablesList(),
    getUserVariable: () => api.user.getUserVariable('THEME'),
    userGetOauth2Application: () => api.user.userGetOauth2Application(),
    userGetOAuth2Application: () => api.user.userGetOAuth2Application(w.oauthAppId),
    userListBlocks: () => api.user.userListBlocks(),
    userCheckUserBlock: () => api.user.userCheckUserBlock(w.blocked.username),
    userListEmails: () => api.user.userListEmails(),
    userCurrentListFollowers: () => api.user.userCurrentListFollowers(),
    userCurrentListFollowing: () => api.user.userCurrentListFollowing(),
    userCurrentCheckFollowing: () => api.user.userCurrentCheckFollowing(w.friend.username),
    getVerificationToken: () => api.user.getVerificationToken(),
    userCurrentListGpgKeys: () => api.user.userCurrentListGpgKeys(),
    userCurrentGetGpgKey: () => api.user.userCurrentGetGpgKey(w.gpgKeyId),
    userListHooks: () => api.user.userListHooks(),
    userGetHook: () => api.user.userGetHook(w.hookId),
    userCurrentListKeys: () => api.user.userCurrentListKeys(),
    userCurrentGetKey: () => api.user.userCurrentGetKey(w.keyId),
    orgListCurrentUserOrgs: () => api.user.orgListCurrentUserOrgs(),
    userCurrentListRepos: () => api.user.userCurrentListRepos(),
    getUserSettings: () => api.user.getUserSettings(),
    userCurrentListStarred: () => api.user.userCurrentListStarred(),
    userCurrentCheckStarring: () => api.user.userCurrentCheckStarring(w.org, w.orgRepo),
    userGetStopWatches: () => api.user.userGetStopWatches(),
    userCurrentListSubscriptions: () => api.user.userCurrentListSubscriptions(),
    userListTeams: () => api.user.userListTeams(),
    userCurrentTrackedTimes: () => api.user.userCurrentTrackedTimes(),
    // users: anyone's public things
    userSearch: () => api.users.userSearch({ q: me }),
    userGet: () => api.users.userGet(me),
    userListActivityFeeds: () => api.users.userListActivityFeeds(me),
    userListFollowers: () => api.users.userListFollowers(me),
    userListFollowing: () => api.users.userListFollowing(me),
    userCheckFollowing: () => api.users.userCheckFollowing(me, w.friend.username),
    userListGpgKeys: () => api.users.userListGpgKeys(me),
    userGetHeatmapData: () => api.users.userGetHeatmapData(me),
    userListKeys: () => api.users.userListKeys(me),
    orgListUserOrgs: () => api.users.orgListUserOrgs(me),
    orgGetUserPermissions: () => api.users.orgGetUserPermissions(me, w.org),
    userListRepos: () => api.users.userListRepos(me),
    userListStarred: () => api.users.userListStarred(me),
    userListSubscriptions: () => api.users.userListSubscriptions(me),
    // Gitea lists tokens to basic authentication only.
    userGetTokens: () => basicApi.users.userGetTokens(me),
    // orgs
    orgGetAll: () => api.orgs.orgGetAll(),
    orgGet: () => api.orgs.orgGet(w.org),
    orgGetRunnerRegistrationToken: () => api.orgs.orgGetRunnerRegistrationToken(w.org),
    orgListActionsSecrets: () => api.orgs.orgListActionsSecrets(w.org),
    getOrgVariablesList: () => api.orgs.getOrgVariablesList(w.org),
    getOrgVariable: () => api.orgs.getOrgVariable(w.org, 'REGION'),
    orgListActivityFeeds: () => api.orgs.orgListActivityFeeds(w.org),
    organizationListBlocks: () => api.orgs.organizationListBlocks(w.org),
    organizationCheckUserBlock: () => api.orgs.organizationCheckUserBlock(w.org, w.orgBlocked.username),
    orgListHooks: () => api.orgs.orgListHooks(w.org),
    orgGetHook: () => api.orgs.orgGetHook(w.org, w.orgHookId),
    orgListLabels: () => api.orgs.orgListLabels(w.org),
    orgGetLabel: () => api.orgs.orgGetLabel(w.org, w.orgLabelId),
    orgListMembers: () => api.orgs.orgListMembers(w.org),
    orgIsMember: () => api.orgs.orgIsMember(w.org, me),
    orgListPublicMembers: () => api.orgs.orgListPublicMembers(w.org),
    orgIsPublicMember: () => api.orgs.orgIsPublicMember(w.org, me),
    orgListRepos: () => api.orgs.orgListRepos(w.org),
    orgListTeams: () => api.orgs.orgListTeams(w.org),
    teamSearch: () => api.orgs.teamSearch(w.org, { q: 'own' }),
    // teams
    orgGetTeam: () => api.teams.orgGetTeam(w.ownersTeam),
    orgListTeamActivityFeeds: () => api.teams.orgListTeamActivityFeeds(w.ownersTeam),
    orgListTeamMembers: () => api.teams.orgListTeamMembers(w.ownersTeam),
    orgListTeamMember: () => api.teams.orgListTeamMember(w.ownersTeam, me),
    orgListTeamRepos: () => api.teams.orgListTeamRepos(w.ownersTeam),
    orgListTeamRepo: () => api.teams.orgListTeamRepo(w.ownersTeam, w.org, w.orgRepo),
    // admin
    adminCronList: () => admin.admin.adminCronList(),
    adminGetAllEmails: () => admin.admin.adminGetAllEmails(),
    adminSearchEmails: () => admin.admin.adminSearchEmails({ q: me }),
    adminListHooks: () => admin.admin.adminListHooks(),
    adminGetHook: () => admin.admin.adminGetHook(w.adminHookId),
    adminGetAllOrgs: () => admin.admin.adminGetAllOrgs(),
    adminGetRunnerRegistrationToken: () => admin.admin.adminGetRunnerRegistrationToken(),
    adminUnadoptedList: () => admin.admin.adminUnadoptedList(),
    adminSearchUsers: () => admin.admin.adminSearchUsers({ login_name: me }),
    adminListUserBadges: () => admin.admin.adminListUserBadges(me),
    // settings, templates, version
    getGeneralApiSettings: () => api.settings.getGeneralApiSettings(),
    getGeneralAttachmentSettings: () => api.settings.getGeneralAttachmentSettings(),
    getGeneralRepositorySettings: () => api.settings.getGeneralRepositorySettings(),
    getGeneralUiSettings: () => api.settings.getGeneralUiSettings(),
    listGitignoresTemplates: () => api.gitignore.listGitignoresTemplates(),
    getGitignoreTemplateInfo: () => api.gitignore.getGitignoreTemplateInfo('Node'),
    listLabelTemplates: () => api.label.listLabelTemplates(),
    getLabelTemplateInfo: () => api.label.getLabelTemplateInfo('Default'),
    listLicenseTemplates: () => api.licenses.listLicenseTemplates(),
    getLicenseTemplateInfo: () => api.licenses.getLicenseTemplateInfo('MIT'),
    getVersion: () => api.version.getVersion(),
    // notifications, topics, packages
    notifyGetList: () => api.notifications.notifyGetList(),
    notifyNewAvailable: () => api.notifications.notifyNewAvailable(),
    notifyGetThread: () => api.notifications.notifyGetThread(w.thread),
    topicSearch: () => api.topics.topicSearch({ q: w.topic }),
    listPackages: () => api.packages.listPackages(me),
    getPackage: () => api.packages.getPackage(me, 'generic', w.pkg.name, w.pkg.version),
    listPackageFiles: () => api.packages.listPackageFiles(me, 'generic', w.pkg.name, w.pkg.version),
  };
}

test('every GET method of these areas answers 2xx for existing objects', async () => {
  const found = (await clientMethods(namespaces)).filter((m) => m.method === 'GET');
  const w = await world();
  const api = giteaJs(app, w.me.auth);
  const admin = giteaJs(app, await app.token(app.admin, ['all']));
  const calls = getCalls(w, api, admin, giteaJs(app, w.me.basic));
  assertEveryMethod(found, Object.keys(calls), skipped);
  const failures: string[] = [];
  for (const [name, call] of Object.entries(calls)) {
    try {
      await expect2xx(name, call());
    } catch (err) {
      failures.push((err as Error).message);
    }
  }
  assert.equal(failures, [], failures.join('\n'));
});

test('the skipped methods answer what the reason says', async () => {
  const api = giteaJs(app);
  for (const call of [api.signingKeyGpg.getSigningKey(), api.nodeinfo.getNodeInfo(), api.activitypub.activitypubPerson(1)]) {
    const r = await call.then(() => undefined, (e: Response) => e);
    assert.is(r?.status, 404);
  }
});

test.run();
