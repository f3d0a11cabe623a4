// #38's acceptance test: gitea-js (1.23.0, the TypeScript Gitea client) calls every GET method of its `repos`
// and `repositories` namespaces against objects that exist, and each answers 2xx. The methods are found from
// the client object (so none is forgotten); those not called are in `skipped`, each with its reason.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { dirOf, disk } from '../helpers/gitFixtures.js';
import { keyPair } from '../helpers/keys.js';
import { getMethodsOf, giteaJs, statusOf, type GiteaJs } from '../helpers/giteaJsRepo.js';

let app: TestApp;

test.before(async () => {
  app = await startApp({ WEBHOOK_ALLOWED_HOST_LIST: 'loopback', MIGRATIONS_ALLOWED_DOMAINS: '127.0.0.1', MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
});
test.after(async () => {
  await app.close();
});

const skipped: Record<string, string> = {
  repoListGitHooks: 'Gitea answers 403 with DISABLE_GIT_HOOKS, its default, as anvil does (enabled: tests/operations/repository/repoListGitHooks.test.ts)',
  repoGetGitHook: 'Gitea answers 403 with DISABLE_GIT_HOOKS, its default, as anvil does (enabled: tests/operations/repository/repoGetGitHook.test.ts)',
  repoSigningKey: 'Gitea answers 404 without a configured signing key (SIGNING_KEY unset here; integration/commitSigning sets one)',
};

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Awaits a gitea-js call that must succeed and answers its data. */
async function ok<T>(what: string, call: Promise<{ data: T; status: number }>): Promise<T> {
  const r = await statusOf(call);
  assert.ok(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${r.body}`);
  return ((await call) as { data: T }).data;
}

interface World { o: string; r: string; user: string; team: string; teamId: number; sha: string; featureSha: string; blobSha: string; tagSha: string;
  issue: number; issue2: number; pull: number; merged: number; mergeSha: string; commentId: number; issueAssetId: number; commentAssetId: number; releaseId: number; assetId: number;
  reviewId: number; hookId: number; keyId: number; labelId: number; milestoneId: number; mirrorName: string; repoId: number; tagProtectionId: number }

async function world(api: GiteaJs): Promise<World> {
  const member = await app.user();
  const o = 'org38js';
  await ok('org', api.orgs.orgCreate({ username: o }));
  const team = await ok('team', api.orgs.orgCreateTeam(o, { name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues', 'repo.pulls'] } as never));
  const repo = await ok('repo', api.orgs.createOrgRepo(o, { name: 'lib', auto_init: true, readme: 'Default', default_branch: 'main' }));
  const r = repo.name!;
  const main = await ok('branch', api.repos.repoGetBranch(o, r, 'main'));
  await ok('editorconfig', api.repos.repoCreateFile(o, r, '.editorconfig', { content: b64('root = true\n[*.md]\nindent_style = space\nindent_size = 2\n'), branch: 'main' }));
  const feature = await ok('feature', api.repos.repoCreateFile(o, r, 'docs/feature.md', { content: b64('# feature\n'), branch: 'main', new_branch: 'feature' }));
  const featureSha = feature.commit!.sha!;
  const sha = (await ok('main', api.repos.repoGetBranch(o, r, 'main'))).commit!.id!; // before the merge below
  const readme = await ok('readme', api.repos.repoGetContents(o, r, 'README.md'));
  const tag = await ok('tag', api.repos.repoCreateTag(o, r, { tag_name: 'v1', message: 'annotated v1', target: 'main' }));
  const release = await ok('release', api.repos.repoCreateRelease(o, r, { tag_name: 'v1', name: 'first', body: 'notes' }));
  const file = new File([Buffer.from('binary')], 'app.tar.gz');
  const asset = await ok('asset', api.repos.repoCreateReleaseAttachment(o, r, release.id!, { attachment: file }, { name: 'app.tar.gz' }));
  const label = await ok('label', api.repos.issueCreateLabel(o, r, { name: 'bug', color: '#ff0000' }));
  const milestone = await ok('milestone', api.repos.issueCreateMilestone(o, r, { title: 'm1' }));
  const issue = await ok('issue', api.repos.issueCreateIssue(o, r, { title: 'first', body: 'b', labels: [label.id!], milestone: milestone.id }));
  const issue2 = await ok('issue2', api.repos.issueCreateIssue(o, r, { title: 'second' }));
  const comment = await ok('comment', api.repos.issueCreateComment(o, r, issue.number!, { body: 'a comment' }));
  await ok('reaction', api.repos.issuePostIssueReaction(o, r, issue.number!, { content: '+1' }));
  await ok('comment reaction', api.repos.issuePostCommentReaction(o, r, comment.id!, { content: 'heart' }));
  const issueAsset = await ok('issue asset', api.repos.issueCreateIssueAttachment(o, r, issue.number!, { attachment: new File(['x'], 'log.txt') }));
  const commentAsset = await ok('comment asset', api.repos.issueCreateIssueCommentAttachment(o, r, comment.id!, { attachment: new File(['y'], 'shot.txt') }));
  await ok('dependency', api.repos.issueCreateIssueDependencies(o, r, String(issue.number), { owner: o, repo: r, index: issue2.number } as never));
  await ok('time', api.repos.issueAddTime(o, r, issue.number!, { time: 60 }));
  await ok('pin', api.repos.pinIssue(o, r, issue.number!));
  const pull = await ok('pull', api.repos.repoCreatePullRequest(o, r, { head: 'feature', base: 'main', title: 'feature' }));
  await ok('pin pull', api.repos.pinIssue(o, r, pull.number!));
  // A second pull request, merged: `…/pulls/{index}/merge` and `…/commits/{sha}/pull` answer 2xx only for one.
  await ok('hotfix', api.repos.repoCreateFile(o, r, 'docs/hotfix.md', { content: b64('# hotfix\n'), branch: 'main', new_branch: 'hotfix' }));
  const merged = await ok('pull 2', api.repos.repoCreatePullRequest(o, r, { head: 'hotfix', base: 'main', title: 'hotfix' }));
  await ok('merge', api.repos.repoMergePullRequest(o, r, merged.number!, { Do: 'merge' } as never));
  const mergeSha = (await ok('merged pull', api.repos.repoGetPullRequest(o, r, merged.number!))).merge_commit_sha!;
  const review = await ok('review', api.repos.repoCreatePullReview(o, r, pull.number!, {
    event: 'COMMENT', body: 'looks fine', comments: [{ path: 'docs/feature.md', body: 'a line', new_position: 1 }],
  } as never));
  await ok('status', api.repos.repoCreateStatus(o, r, sha, { state: 'success', context: 'ci', target_url: 'http://127.0.0.1/ci' } as never));
  await ok('status feature', api.repos.repoCreateStatus(o, r, featureSha, { state: 'pending', context: 'ci' } as never));
  await ok('wiki', api.repos.repoCreateWikiPage(o, r, { title: 'Home', content_base64: b64('wiki home') }));
  const hook = await ok('hook', api.repos.repoCreateHook(o, r, { type: 'gitea', active: true, config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' } } as never));
  const key = await ok('deploy key', api.repos.repoCreateKey(o, r, { title: 'deploy', key: keyPair().public, read_only: true }));
  await ok('collaborator', api.repos.repoAddCollaborator(o, r, member.username, { permission: 'write' } as never));
  await ok('team', api.repos.repoAddTeam(o, r, 'devs'));
  await ok('topic', api.repos.repoAddTopic(o, r, 'library'));
  await ok('branch protection', api.repos.repoCreateBranchProtection(o, r, { rule_name: 'main' } as never));
  const tp = await ok('tag protection', api.repos.repoCreateTagProtection(o, r, { name_pattern: 'v*', whitelist_usernames: [app.admin.username] } as never));
  const mirror = await ok('push mirror', api.repos.repoAddPushMirror(o, r, { remote_address: 'http://127.0.0.1:9/mirror.git', interval: '8h0m0s' } as never));
  await ok('secret', api.repos.updateRepoSecret(o, r, 'DEPLOY', { data: 'secret' }));
  await ok('variable', api.repos.createRepoVariable(o, r, 'LEVEL', { value: 'high' }));
  await ok('watch', api.repos.userCurrentPutSubscription(o, r));
  await ok('issue watch', api.repos.issueAddSubscription(o, r, issue.number!, app.admin.username));
  // A git note (written by git alone, as Gitea's API cannot write notes).
  const env = { GIT_AUTHOR_NAME: 'n', GIT_AUTHOR_EMAIL: 'n@example.com', GIT_COMMITTER_NAME: 'n', GIT_COMMITTER_EMAIL: 'n@example.com' };
  await disk.run(dirOf(app, repo as never), ['notes', 'add', '-m', 'a note', sha], { env });
  return {
    o, r, user: member.username, team: 'devs', teamId: team.id!, sha, featureSha, blobSha: readme.sha!, tagSha: tag.id!,
    issue: issue.number!, issue2: issue2.number!, pull: pull.number!, merged: merged.number!, mergeSha, commentId: comment.id!, issueAssetId: issueAsset.id!, commentAssetId: commentAsset.id!,
    releaseId: release.id!, assetId: asset.id!, reviewId: review.id!, hookId: hook.id!, keyId: key.id!, labelId: label.id!, milestoneId: milestone.id!,
    mirrorName: mirror.remote_name!, repoId: repo.id!, tagProtectionId: tp.id!,
  };
  void main;
}

/** The arguments each GET method is called with (after owner and repo where its path starts with them). */
function argsOf(w: World): Record<string, unknown[]> {
  const { o, r } = w;
  return {
    issueSearchIssues: [{}], repoSearch: [{ q: 'lib' }], repoGetById: [w.repoId],
    repoGet: [o, r], repoGetRunnerRegistrationToken: [o, r], repoListActionsSecrets: [o, r], listActionTasks: [o, r],
    getRepoVariablesList: [o, r], getRepoVariable: [o, r, 'LEVEL'], repoListActivityFeeds: [o, r], repoGetArchive: [o, r, 'main.zip'],
    repoGetAssignees: [o, r], repoListBranchProtection: [o, r], repoGetBranchProtection: [o, r, 'main'], repoListBranches: [o, r],
    repoGetBranch: [o, r, 'feature'], repoListCollaborators: [o, r], repoCheckCollaborator: [o, r, w.user], repoGetRepoPermissions: [o, r, w.user],
    repoGetAllCommits: [o, r], repoGetCombinedStatusByRef: [o, r, 'main'], repoListStatusesByRef: [o, r, 'main'],
    repoGetCommitPullRequest: [o, r, w.mergeSha], repoGetLanguages: [o, r], repoGetLicenses: [o, r], repoCompareDiff: [o, r, 'main...feature'], repoGetContentsList: [o, r],
    repoGetContents: [o, r, 'README.md'], repoGetEditorConfig: [o, r, 'README.md'], listForks: [o, r], getBlob: [o, r, w.blobSha],
    repoGetSingleCommit: [o, r, w.sha], repoDownloadCommitDiffOrPatch: [o, r, w.featureSha, 'diff'], repoGetNote: [o, r, w.sha],
    repoListAllGitRefs: [o, r], repoListGitRefs: [o, r, 'heads'], getAnnotatedTag: [o, r, w.tagSha], getTree: [o, r, w.sha, { recursive: true }],
    repoListHooks: [o, r], repoGetHook: [o, r, w.hookId], repoGetIssueConfig: [o, r], repoValidateIssueConfig: [o, r], repoGetIssueTemplates: [o, r],
    issueListIssues: [o, r], issueGetRepoComments: [o, r], issueGetComment: [o, r, w.commentId], issueListIssueCommentAttachments: [o, r, w.commentId],
    issueGetIssueCommentAttachment: [o, r, w.commentId, w.commentAssetId], issueGetCommentReactions: [o, r, w.commentId], repoListPinnedIssues: [o, r],
    issueGetIssue: [o, r, w.issue], issueListIssueAttachments: [o, r, w.issue], issueGetIssueAttachment: [o, r, w.issue, w.issueAssetId],
    issueListBlocks: [o, r, String(w.issue2)], issueGetComments: [o, r, w.issue], issueListIssueDependencies: [o, r, String(w.issue)],
    issueGetLabels: [o, r, w.issue], issueGetIssueReactions: [o, r, w.issue], issueSubscriptions: [o, r, w.issue], issueCheckSubscription: [o, r, w.issue],
    issueGetCommentsAndTimeline: [o, r, w.issue], issueTrackedTimes: [o, r, w.issue], repoListKeys: [o, r], repoGetKey: [o, r, w.keyId],
    issueListLabels: [o, r], issueGetLabel: [o, r, w.labelId], repoGetRawFileOrLfs: [o, r, 'README.md'], issueGetMilestonesList: [o, r],
    issueGetMilestone: [o, r, String(w.milestoneId)], repoNewPinAllowed: [o, r], notifyGetRepoList: [o, r], repoListPullRequests: [o, r],
    repoListPinnedPullRequests: [o, r], repoGetPullRequestByBaseHead: [o, r, 'main', 'feature'], repoGetPullRequest: [o, r, w.pull],
    repoDownloadPullDiffOrPatch: [o, r, w.pull, 'diff'], repoGetPullRequestCommits: [o, r, w.pull], repoGetPullRequestFiles: [o, r, w.pull],
    repoPullRequestIsMerged: [o, r, w.merged], repoListPullReviews: [o, r, w.pull], repoGetPullReview: [o, r, w.pull, w.reviewId],
    repoGetPullReviewComments: [o, r, w.pull, w.reviewId], repoListPushMirrors: [o, r], repoGetPushMirrorByRemoteName: [o, r, w.mirrorName],
    repoGetRawFile: [o, r, 'README.md'], repoListReleases: [o, r], repoGetLatestRelease: [o, r], repoGetReleaseByTag: [o, r, 'v1'],
    repoGetRelease: [o, r, w.releaseId], repoListReleaseAttachments: [o, r, w.releaseId], repoGetReleaseAttachment: [o, r, w.releaseId, w.assetId],
    repoGetReviewers: [o, r], repoListStargazers: [o, r], repoListStatuses: [o, r, w.sha], repoListSubscribers: [o, r],
    userCurrentCheckSubscription: [o, r], repoListTagProtection: [o, r], repoGetTagProtection: [o, r, w.tagProtectionId], repoListTags: [o, r],
    repoGetTag: [o, r, 'v1'], repoListTeams: [o, r], repoCheckTeam: [o, r, w.team], repoTrackedTimes: [o, r], userTrackedTimes: [o, r, app.admin.username],
    repoListTopics: [o, r], repoGetWikiPage: [o, r, 'Home'], repoGetWikiPages: [o, r], repoGetWikiPageRevisions: [o, r, 'Home'],
  };
}

test('every GET method of gitea-js\'s repos and repositories namespaces answers 2xx for existing objects', async () => {
  const api = giteaJs(app, await app.token(app.admin, ['all']));
  const w = await world(api);
  const args = argsOf(w);
  const found = new Map([...(await getMethodsOf('repos')), ...(await getMethodsOf('repositories'))]);
  assert.ok(found.size > 100, `gitea-js's GET methods found: ${found.size}`);
  const called: string[] = [];
  const failures: string[] = [];
  const namespaces = api as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>;
  for (const [name, path] of found) {
    if (skipped[name]) continue;
    const a = args[name];
    if (!a) {
      failures.push(`${name} (${path}): no arguments given to the test (add a fixture, or skip it with a reason)`);
      continue;
    }
    const fn = namespaces.repos![name] ?? namespaces.repositories![name]!;
    called.push(name);
    const res = await statusOf(fn(...a));
    if (res.status < 200 || res.status > 299) failures.push(`${name} (${path}): ${res.status} ${res.body.slice(0, 200)}`);
  }
  assert.equal(failures, [], `non-2xx answers:\n${failures.join('\n')}`);
  for (const name of Object.keys(skipped)) assert.ok(found.has(name), `skip list names ${name}, which gitea-js does not have`);
  assert.is(found.size, called.length + Object.keys(skipped).length, 'found == called + skipped');
  for (const name of Object.keys(args)) assert.ok(found.has(name), `arguments for ${name}, which gitea-js does not have as a GET`);
});

test.run();
