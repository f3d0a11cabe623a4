// The fixtures the contract test's requests run against: users of each visibility, organizations with
// teams, repositories with content (branches, tags, files, issues, a comment, a label, a milestone, a
// wiki page, a collaborator), a pending transfer, callers with every kind of credential and spare
// access tokens. Fixtures are built through the API (as the site admin, with Sudo where the doer
// matters). After a request changed state (a 2xx answer to anything but GET), what it may have
// consumed is put back, so success paths stay reachable and a shrunk request replays against about the
// same state.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hookDeliveries, notifications, users as userTable, type UserRow } from '../../src/db/schema/index.js';
import { basic, type TestApp, type TestUser } from '../helpers/harness.js';
import { keyPair } from '../helpers/keys.js';
import { detachedSignature, gpgPair, type GpgPair } from '../helpers/gpg.js';
import { seedRuns } from '../helpers/actions.js';
import { seedArtifact } from '../helpers/artifacts.js';
import { samplePng } from '../helpers/avatars.js';
import { disk } from '../helpers/gitFixtures.js';
import { repoFolder } from '../helpers/repos.js';
import { folderExists, makeFolder } from '../helpers/unadopted.js';
import type { AccessRule } from '../../src/api/auth.js';
import type { HttpRequest } from '../../fuzz/http.js';
import { anyRequest, validRequest, type GeneratedRequest, type JsonSchema, type OperationShape } from '../../fuzz/arbitraries.js';

export const callers = [
  'anonymous',
  'user:basic', // a plain user, password
  'admin:basic', // the site admin, password
  'user:token', // Authorization: token <all>
  'admin:bearer', // Authorization: Bearer <all>
  'user:access_token', // ?access_token=<all> (deprecated)
  'user:wrong-scope', // a token with read:notification only
  'user:token-as-basic', // Basic with the token as password: a token, not a password sign-in
  'outsider:token', // a signed-in user with an all-scope token, member of nothing, collaborator nowhere
  'reader:token', // a read-only collaborator of every fixture repository (all-scope token)
] as const;
export type Caller = (typeof callers)[number];

/** The generic package every fixture owner has. */
const packageFixture = 'contract-pkg';
const callerWeights: Record<Caller, number> = {
  anonymous: 2,
  'user:basic': 1,
  'admin:basic': 1,
  'user:token': 4,
  'admin:bearer': 4,
  'user:access_token': 2,
  'user:wrong-scope': 2,
  'user:token-as-basic': 1,
  'outsider:token': 2,
  'reader:token': 2,
};
const passwordCallers = new Set<Caller>(['user:basic', 'admin:basic', 'user:token-as-basic']);

/**
 * Callers, weighted. A password sign-in costs a scrypt hash (~80 ms), so Basic callers are drawn
 * rarely, except for the operations that only Basic with a password may call.
 */
export function callerArb(basicOnly: boolean): fc.Arbitrary<Caller> {
  return fc.oneof(
    ...callers.map((c) => ({ weight: basicOnly && passwordCallers.has(c) ? 5 : callerWeights[c], arbitrary: fc.constant(c) })),
  );
}

const spares = ['spare-a', 'spare-b', 'spare-c'];

interface CallerToken {
  owner: 'user' | 'admin' | 'outsider' | 'reader';
  name: string;
  scopes: string[];
}
const callerTokens: Record<string, CallerToken> = {
  'user:token': { owner: 'user', name: 'caller-all', scopes: ['all'] },
  'user:access_token': { owner: 'user', name: 'caller-all', scopes: ['all'] },
  'user:token-as-basic': { owner: 'user', name: 'caller-all', scopes: ['all'] },
  'admin:bearer': { owner: 'admin', name: 'caller-all', scopes: ['all'] },
  'user:wrong-scope': { owner: 'user', name: 'caller-notification', scopes: ['read:notification'] },
  'outsider:token': { owner: 'outsider', name: 'caller-all', scopes: ['all'] },
  'reader:token': { owner: 'reader', name: 'caller-all', scopes: ['all'] },
};
/**
 * Writes under a repository or an organization that a signed-in user without write access may make on
 * what they can see, as in Gitea: open issues and comment on them, react, subscribe, review, fork.
 */
const othersMayWrite = new Set<string>([
  'issueCreateIssue', 'issueEditIssue', // an issue of one's own
  'issueCreateComment', 'issueEditComment', 'issueDeleteComment', 'issueEditCommentDeprecated', 'issueDeleteCommentDeprecated',
  'issuePostIssueReaction', 'issueDeleteIssueReaction', 'issuePostCommentReaction', 'issueDeleteCommentReaction',
  'issueAddSubscription', 'issueDeleteSubscription', // one's own subscription to an issue
  'userCurrentPutSubscription', 'userCurrentDeleteSubscription', // watching the repository
  'notifyReadRepoList', // one's own notifications of the repository
  'createFork',
  'repoCreatePullRequest', // between branches of a repository one can read (Gitea's compare page)
  'repoCreatePullReview', 'repoSubmitPullReview', 'repoDeletePullReview', // reviews are for readers too
  'repoGetFileContentsPost', // a read through POST (Gitea: code readers; only the token's scope is a write one)
]);
/** Callers signed in as the site administrator. */
const adminCallers = new Set<Caller>(['admin:basic', 'admin:bearer']);

/** Every fixture owner has both, so any owner/repo pair drawn from the fixtures exists. */
const repoFixtures = [
  { name: 'repo-a', private: false },
  { name: 'repo-p', private: true },
];
const transferRepo = 'xfer';
/** Where the fixture push mirrors point (#39): 127.0.0.1 on a closed port. */
const pushMirrorAddress = 'http://127.0.0.1:9/contract/mirror.git';
/** Empty repositories (cheap to re-create) for the operations that delete, rename or give away a repository. */
const victimRepo = 'victim';
/** A folder of the user's in the repository root without a row: adopted or deleted by the unadopted operations. */
const unadoptedRepo = 'unadopted-fixture';
/** merge-upstream's fork (the site admin's) and its base (the user's). */
const upstreamBase = 'upstream-base';
const upstreamFork = 'upstream-fork';
/** An organization without repositories that orgDelete and orgEdit may change at will (made again when deleted). */
const victimOrg = 'org-victim';
/** The fixture team `devs` of `org`, as it is put back after an edit or a delete. */
const devsTeam = { name: 'devs', description: '', permission: 'write', units: ['repo.code', 'repo.issues'], visibility: 'public', includes_all_repositories: false, can_create_org_repo: false };
/** What orgEdit may change on the fixture organizations, as they were made. */
const orgFields = { full_name: '', description: '', email: '', website: '', location: '', repo_admin_change_team_access: false };

/** What a fixture repository holds that path parameters refer to by id or sha. */
interface RepoData {
  tagSha?: string;
  /** The blob of README.md, and the current blob of edit-me.txt on main (the file update operation's target). */
  blobSha?: string;
  editSha?: string;
  commitSha?: string;
  commentId?: number;
  milestoneId?: number;
  labelId?: number;
  issueAssetId?: number;
  commentAssetId?: number;
  hookId?: number;
  hookDeliveryId?: number;
  /** A push mirror to a closed port (#39). */
  pushMirrorName?: string;
  /** A tracked time on issue 1 (the site admin's). */
  timeId?: number;
  /** A deploy key of the repository. */
  deployKeyId?: number;
  /** An ended Actions run and its job; a run still going. */
  runId?: number;
  /** A runner registered with the repository's token. */
  runnerId?: number;
  jobId?: number;
  openRunId?: number;
  /** A fork pull request's run waiting for approval (approveWorkflowRun's target). */
  approvalRunId?: number;
  /** An ended run with a failed job (rerunFailedWorkflowRun's target). */
  failedRunId?: number;
  /** A finalized artifact of the ended run. */
  artifactId?: number;
  /** An open pull request with a merge scheduled for when its checks succeed (the merge operations' target). */
  mergePull?: number;
  /** A merged pull request. */
  mergedPull?: number;
  /** How many merge targets were made (their branches need distinct names and files). */
  mergeRounds?: number;
  /** An approval of pull request 3 by the fixture user, and a pending review of it by the site admin. */
  reviewId?: number;
  pendingReviewId?: number;
  /** The line comment of that approval (resolve and unresolve). */
  reviewCommentId?: number;
  // Releases
  /** A release of tag v1 with one asset (made again after a run changed or deleted it). */
  releaseId?: number;
  releaseAssetId?: number;
  /** A tag protection rule of a pattern no fixture tag matches (the tag-protection operations' target). */
  tagProtectionId?: number;
}

export interface SentRequest extends HttpRequest {
  caller: Caller;
}

/** A client cannot put a lone surrogate on the wire; fetch and URLSearchParams send U+FFFD instead. */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function fileForm(filename: string): FormData {
  const form = new FormData();
  form.append('attachment', new Blob([`contents of ${filename}\n`]), filename);
  return form;
}

/**
 * One path value, percent-encoded. A file path spans several segments (the router reads the rest of the
 * path), so it is encoded per segment as clients send it, unless a segment is empty or a dot segment,
 * which the URL would drop or resolve: then it goes whole, its slashes encoded.
 */
function encodePathValue(name: string, value: string): string {
  const segments = value.split('/');
  const plain = segments.every((seg) => seg !== '' && !/^(\.|%2e){1,2}$/i.test(seg));
  return name === 'filepath' && plain ? segments.map(encodeURIComponent).join('/') : encodeURIComponent(value);
}
const topicPatch = ['diff --git a/topic.txt b/topic.txt', 'new file mode 100644', '--- /dev/null', '+++ b/topic.txt', '@@ -0,0 +1 @@', '+topic', ''].join('\n');
/** A workflow that runs by hand only (ActionsDispatchWorkflow's fixture). */
const workflowPatch = [
  'diff --git a/.gitea/workflows/manual.yml b/.gitea/workflows/manual.yml',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/.gitea/workflows/manual.yml',
  '@@ -0,0 +1,6 @@',
  '+on: workflow_dispatch',
  '+jobs:',
  '+  build:',
  '+    runs-on: ubuntu-latest',
  '+    steps:',
  '+      - run: make',
  '',
].join('\n');

const guidePatch = [
  'diff --git a/docs/guide.md b/docs/guide.md',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/docs/guide.md',
  '@@ -0,0 +1,2 @@',
  '+# Guide',
  '+Read me first.',
  '',
].join('\n');

type FixtureUsers = { user: TestUser; admin: TestUser; private: TestUser; limited: TestUser; outsider: TestUser; reader: TestUser };
type Answer = { status: number; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

export class World {
  private secrets = new Map<string, string>(); // `${owner}/${name}` → token value
  private spareIds = new Map<string, number>(); // `${lowerName}/${spare}` → id
  private teamIds: number[] = [];
  private devsId = 0;
  /** Notification threads of the fixture user (the issues the admin opened in the user's repositories). */
  private threadIds: number[] = [];
  private repoData = new Map<string, RepoData>(); // `${owner}/${repo}` lower case → ids and shas
  /** Hooks (with one delivery each) of the organisations (by lower-case name) and of the site (''). */
  private hookFixtures = new Map<string, { hookId: number; deliveryId: number }>();
  /** Each organisation's (by lower-case name) fixture project: a kanban board, its default and one other column. */
  private projectFixtures = new Map<string, { projectId: number; defaultId: number; columnId: number }>();
  /** The fixture label of each organization, by lower-case name. */
  private orgLabelIds = new Map<string, number>();
  /** The fixture user's GPG key, fresh GPG keys naming the user's e-mail, and a signature of the current token. */
  private gpgKey?: { id: number; pair: GpgPair };
  freshGpgKeys: string[] = [];
  gpgSignature = '';
  get gpgKeyId(): string | undefined {
    return this.gpgKey?.pair.keyId;
  }
  /** The fixture user's SSH key. */
  private userKeyId?: number;
  /** An OAuth2 application of the fixture user (made again after a run deleted it). */
  private oauth2AppId?: number;
  /** A registered Actions runner (the admin runner operations read, change and delete it). */
  private runnerId?: number;
  /** Runners registered with each organisation's token, by lower-cased name. */
  private readonly orgRunners = new Map<string, number>();
  /** A runner registered with the fixture user's own token (the user runner operations' target). */
  private userRunnerId?: number;
  /** Fresh public keys the key-adding operations may use (each added one is removed again after the run). */
  readonly freshKeys = Array.from({ length: 3 }, () => keyPair().public);
  /** Issues of the organisations' repositories, for boards. */
  readonly orgIssueIds: number[] = [];
  /** Restores owed since the last run: each a request path that changed state. */
  private owed: Array<{ specPath: string; method: string; path: Record<string, string>; body: unknown }> = [];
  /** Setup steps that failed (an operation not built yet, or broken): shown once. */
  readonly setupProblems: string[] = [];
  /** Fresh file paths handed out to the file creation operation. */
  private newPaths = 0;

  private constructor(
    readonly app: TestApp,
    readonly users: FixtureUsers,
    readonly orgs: { org: UserRow; privateOrg: UserRow },
  ) {}

  static async create(app: TestApp): Promise<World> {
    const { services } = app;
    const users: FixtureUsers = {
      user: await app.user(),
      admin: app.admin,
      private: await app.user({ visibility: 'private' }),
      limited: await app.user({ visibility: 'limited' }),
      outsider: await app.user(),
      reader: await app.user(),
    };
    const row = async (u: TestUser) => (await services.users.byId(u.id))!;
    // `org` is owned by the plain user, `privorg` (private) by the site admin only.
    const org = await services.orgs.create(await row(users.user), { username: 'org-fixture' });
    const privateOrg = await services.orgs.create(await row(users.admin), { username: 'privorg-fixture', visibility: 'private' });
    const world = new World(app, users, { org, privateOrg });
    // Accounts the user-administration operations may change or delete without harming the other fixtures.
    for (const name of ['edit-victim', 'delete-victim-1', 'delete-victim-2', 'block-victim']) {
      await services.users.create({ username: name, email: `${name}@example.com`, password: 'victim-password', mustChangePassword: false });
    }
    // The blocking operations block only `block-victim`, who has no ties a block would end; the user and
    // the organization already block them, so that unblocking and the checks succeed too.
    const blockVictim = (await services.users.byName('block-victim'))!;
    await services.blocks.block(await row(users.user), await row(users.user), blockVictim, 'fixture');
    await services.blocks.block(await row(users.user), org, blockVictim, 'fixture');
    // The badge adminAddUserBadges gives (and the run takes back after each success).
    await services.badges.create({ slug: 'fixture-badge', description: 'a fixture' });
    await world.restoreTokens();
    for (const o of [org, privateOrg]) {
      const { rows } = await services.teams.list(o, await services.access.orgViewer(o.id, await row(users.admin)), { limit: 50, offset: 0 });
      world.teamIds.push(...rows.map((t) => t.id));
    }
    const devs = await services.teams.create(org, { name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues'], visibility: 'public' });
    world.teamIds.push(devs.team.id);
    world.devsId = devs.team.id;
    await services.teams.addMember(devs.team, await services.access.orgViewer(org.id, await row(users.user)), await row(users.limited));
    // A team with no members, which repoAddTeam and repoDeleteTeam give and take repositories (nobody's access changes).
    await services.teams.create(org, { name: 'spare', permission: 'read', units: ['repo.code'], visibility: 'public' });
    await world.restoreFollows();
    await world.restoreVictimOrg();
    await world.restorePublicMember();
    for (const owner of world.repoOwners) {
      for (const r of repoFixtures) await world.seedRepo(owner, r.name, r.private);
      await world.restoreRepo(owner, victimRepo);
      await world.restorePackage(owner);
    }
    await world.restoreTransfer();
    await world.restoreUnadopted();
    // merge-upstream (#39): the site admin's fork of a repository of the user that nothing else forks.
    if (await world.step('create a repository to fork', 'POST', '/user/repos', { name: upstreamBase, auto_init: true }, users.user.username)) {
      await world.step('fork it for merge-upstream', 'POST', `/repos/${users.user.username}/${upstreamBase}/forks`, { name: upstreamFork });
    }
    await world.restoreStopwatches();
    await world.restoreUserKey();
    await world.restoreOAuth2App();
    for (const o of [org, privateOrg]) await world.restoreActionSettings(`/orgs/${o.name}`);
    await world.restoreActionSettings('/user', users.user.username);
    await world.restoreRunner();
    for (const o of [org, privateOrg]) await world.restoreScopedRunner(o.name);
    await world.restoreUserRunner();
    await world.restoreGpgKey();
    for (let i = 0; i < 2; i++) world.freshGpgKeys.push((await gpgPair(users.user.email)).publicKey);
    for (const scope of [org.name, privateOrg.name, '', '@user']) await world.restoreHook(scope);
    for (const o of [org.name, privateOrg.name]) await world.restoreOrgLabel(o);
    for (const o of [org.name, privateOrg.name]) {
      await world.restoreProject(o);
      for (const r of repoFixtures) {
        const issue = await world.api('GET', `/repos/${o}/${r.name}/issues/1`);
        if (issue.status === 200) world.orgIssueIds.push(issue.json.id);
      }
    }
    const [me] = await app.services.deps.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.lowerName, world.users.user.username.toLowerCase()));
    if (me) world.threadIds = (await app.services.deps.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, me.id))).map((t) => t.id);
    if (world.threadIds.length === 0) world.setupProblems.push('notification threads: the fixture user has none');
    return world;
  }

  private get repoOwners(): string[] {
    return [this.users.user.username, this.orgs.org.name, this.orgs.privateOrg.name];
  }

  /** Path parameter values drawn most of the time (the generators add random ones), for one operation. */
  fixturesFor(specPath: string, operationId: string): Record<string, string[]> {
    const { user, admin, private: priv, limited } = this.users;
    const { org, privateOrg } = this.orgs;
    const usernames = [user.username, admin.username, priv.username, limited.username];
    const byName: Record<string, string[]> = {
      username: [...usernames, user.username.toUpperCase()],
      collaborator: [...usernames, org.name],
      token: [...spares, ...spares.map((s) => `$token-id:${s}`)],
      org: [org.name, privateOrg.name, org.name.toUpperCase(), user.username],
      owner: [...this.repoOwners, user.username.toUpperCase()],
      repo: [...repoFixtures.map((r) => r.name), 'REPO-A'],
      branch: ['main', 'feature', 'spare'],
      tag: ['v1', 'v0'],
      sha: ['$tag-sha', '$commit-sha'],
      ref: ['main', 'feature', 'v1', '$commit-sha'],
      filepath: ['README.md', 'docs/guide.md', 'docs'],
      pageName: ['Home', 'Second'],
      index: ['1', '2'],
      user: usernames,
      target: [...usernames, org.name],
      // Cron tasks that are quick on the contract's data (a real count and one with nothing to do).
      task: ['check_repo_stats', 'update_mirrors'],
      workflow_id: ['manual.yml', 'manual.yml', 'missing.yml'],
      secretname: ['DEPLOY_KEY', 'deploy_key', 'MISSING_ONE'],
      variablename: ['REGION', 'region', 'MISSING_ONE'],
      topic: ['fixture', 'Fixture', 'extra'],
    };
    // The same name means different things under different collections.
    const bySegment: Record<string, string[]> = {
      'teams/id': this.teamIds.map(String),
      'teams/team': ['devs', 'Owners', 'OWNERS', 'nope'],
      'templates/name': specPath.startsWith('/label/') ? ['Default', 'Advanced', 'nope'] : ['Node', 'Go', 'nope'],
      'licenses/name': ['MIT', 'Apache-2.0', 'nope'],
      'repositories/id': ['1', '2', '3', '999999'],
      'threads/id': this.threadIds.slice(0, 3).map(String),
      'comments/id': ['$comment-id'],
      'push_mirrors/name': ['$push-mirror', '$push-mirror', 'remote_mirror_nothere0'],
      'projects/id': ['$project-id'],
      'columns/column_id': ['$column-id', '$default-column-id'],
      'times/id': ['$time-id'],
      'keys/id': [specPath.startsWith('/repos/') ? '$deploy-key-id' : '$user-key-id'],
      'gpg_keys/id': ['$gpg-key-id'],
      'oauth2/id': ['$oauth2-app-id', '$oauth2-app-id', '987654'],
      'runners/runner_id': [
        specPath.startsWith('/repos/') ? '$repo-runner-id' : specPath.startsWith('/orgs/') ? '$org-runner-id' : specPath.startsWith('/user/') ? '$user-runner-id' : '$runner-id',
        '$runner-id', '0', 'not-a-number',
      ].concat(specPath.startsWith('/admin/') ? ['$runner-id'] : specPath.startsWith('/user/') ? ['$user-runner-id', '$org-runner-id'] : ['$repo-runner-id', '$org-runner-id']),
      'runs/run': ['$run-id', '$open-run-id', '987654'],
      'jobs/job_id': ['$job-id', '$job-id', '987654'],
      'artifacts/artifact_id': ['$artifact-id', '$artifact-id', '987654'],
      'milestones/id': ['$milestone-id', 'm1'],
      'labels/id': specPath.startsWith('/orgs/') ? ['$org-label-id', '$org-label-id', '999999'] : ['$label-id', '$label-id', '999999'],
      'assets/attachment_id': specPath.includes('/releases/') ? ['$release-asset-id', '999999'] : ['$comment-asset-id', '$issue-asset-id'],
      'releases/id': ['$release-id', '$release-id', '999999'],
      'hooks/id': [specPath.startsWith('/repos/') ? '$repo-hook-id' : specPath.startsWith('/orgs/') ? '$org-hook-id' : specPath.startsWith('/user/') ? '$user-hook-id' : '$site-hook-id'],
      'tag_protections/id': ['$tag-protection-id', '$tag-protection-id', '999999'],
      'git/id': ['pre-receive', 'update', 'post-receive'],
      'deliveries/delivery_id': [specPath.startsWith('/repos/') ? '$repo-delivery-id' : specPath.startsWith('/orgs/') ? '$org-delivery-id' : '$site-delivery-id'],
    };
    // Transfers are answered by the recipient of a pending one, which only one fixture has.
    const byOperation: Record<string, Record<string, string[]>> = {
      acceptRepoTransfer: { owner: [limited.username], repo: [transferRepo] },
      rejectRepoTransfer: { owner: [limited.username], repo: [transferRepo] },
      repoDelete: { repo: [victimRepo] },
      // The fixture repositories are templates (seedRepo).
      generateRepo: { template_owner: [user.username, user.username, 'nobody-here'], template_repo: ['repo-a', 'repo-p'] },
      // The site admin's fork (200), its base (400: no fork), the other pairings 404.
      repoMergeUpstream: { owner: [admin.username, user.username], repo: [upstreamFork, upstreamFork, upstreamBase] },
      // A run waiting for approval, one with a failed job; the others answer 409/400 and 404.
      approveWorkflowRun: { run: ['$approval-run-id', '$approval-run-id', '$run-id', '987654'] },
      rerunFailedWorkflowRun: { run: ['$failed-run-id', '$failed-run-id', '$run-id', '$open-run-id', '987654'] },
      // Owners has every repository (422 either way): devs keeps exactly the access the other fixtures count on.
      repoAddTeam: { team: ['spare', 'spare', 'Owners', 'nope'] },
      repoDeleteTeam: { team: ['spare', 'spare', 'Owners', 'nope'] },
      orgDelete: { org: [victimOrg, victimOrg.toUpperCase(), org.name, 'nobody-here'] },
      orgEdit: { org: [victimOrg, org.name, privateOrg.name] },
      adminEditUser: { username: ['edit-victim', 'EDIT-VICTIM', 'nobody-here', org.name] },
      adminDeleteUser: { username: ['delete-victim-1', 'delete-victim-2', 'nobody-here', org.name] },
      // A rename would take a fixture's name from every other operation: only names it refuses (404, 422).
      renameOrg: { org: ['nobody-here', 'NOBODY-HERE'] },
      adminRenameUser: { username: ['nobody-here', org.name] },
      ...Object.fromEntries(['userBlockUser', 'userUnblockUser', 'userCheckUserBlock', 'organizationBlockUser', 'organizationUnblockUser', 'organizationCheckUserBlock']
        .map((op) => [op, { username: ['block-victim', 'BLOCK-VICTIM', 'nobody-here', org.name] }])),
      repoEdit: { repo: [victimRepo] },
      repoTransfer: { repo: [victimRepo] },
      // The unadopted folder (204), a repository with a row (404), no such owner (404).
      ...Object.fromEntries(['adminAdoptRepository', 'adminDeleteUnadoptedRepository']
        .map((op) => [op, { owner: [user.username, user.username, 'nobody-here'], repo: [unadoptedRepo, unadoptedRepo, 'repo-a'] }])),
      repoDeleteBranch: { branch: ['spare', 'main'] },
      // A rename takes spare away (made again after it); main would move the default branch under every other operation.
      repoRenameBranch: { branch: ['spare', 'spare', 'nope'] },
      // v1 carries the fixture release (409); v0 may go.
      repoDeleteTag: { tag: ['v0', 'v1', 'nope'] },
      repoGetPullRequest: { index: ['3'] },
      repoEditPullRequest: { index: ['3'] },
      repoMergePullRequest: { index: ['$merge-pull', '$merge-pull', '$merged-pull', '999'] },
      repoPullRequestIsMerged: { index: ['$merged-pull', '$merge-pull', '3', '999'] },
      repoCancelScheduledAutoMerge: { index: ['$merge-pull', '$merge-pull', '$merged-pull', '999'] },
      repoDownloadPullDiffOrPatch: { index: ['3', '$merged-pull', '999'], diffType: ['diff', 'patch', 'txt'] },
      repoGetPullRequestFiles: { index: ['3', '$merged-pull', '999'] },
      repoGetPullRequestCommits: { index: ['3', '$merged-pull', '999'] },
      repoUpdatePullRequest: { index: ['3', '3', '$merged-pull', '999'] },
      repoGetPullRequestByBaseHead: { base: ['main', 'topic'], head: ['topic', 'topic2', 'nothing'] },
      repoListPullReviews: { index: ['3', '999'] },
      repoCreatePullReview: { index: ['3', '3', '999'] },
      // Never a fixture issue: deleting one would take the comments, attachments and labels other operations use.
      issueDelete: { index: ['999', '99999'] },
      repoGetPullReview: { index: ['3', '999'], id: ['$review-id', '$pending-review-id', '999999'] },
      repoSubmitPullReview: { index: ['3', '3', '999'], id: ['$pending-review-id', '$pending-review-id', '$review-id'] },
      repoDeletePullReview: { index: ['3', '999'], id: ['$review-id', '$pending-review-id', '999999'] },
      repoGetPullReviewComments: { index: ['3', '999'], id: ['$review-id', '$pending-review-id', '999999'] },
      repoDismissPullReview: { index: ['3', '999'], id: ['$review-id', '$pending-review-id', '999999'] },
      repoUnDismissPullReview: { index: ['3', '999'], id: ['$review-id', '$pending-review-id', '999999'] },
      repoResolvePullReviewComment: { id: ['$review-comment-id', '$review-comment-id', '999999'] },
      repoUnresolvePullReviewComment: { id: ['$review-comment-id', '$review-comment-id', '999999'] },
      repoCreatePullReviewRequests: { index: ['3', '3', '999'] },
      repoDeletePullReviewRequests: { index: ['3', '3', '999'] },
      repoGetBranchProtection: { name: ['protected-*', 'protected-*', 'none'] },
      repoEditBranchProtection: { name: ['protected-*', 'protected-*', 'none'] },
      repoDeleteBranchProtection: { name: ['protected-*', 'protected-*', 'none'] },
      // The fixture user and the site admin each keep a stopwatch running on the user's repo-a issue 1.
      issueStopStopWatch: { owner: [user.username], repo: ['repo-a'], index: ['1'] },
      // Only main has the workflow (it was added after the other branches).
      ActionsDispatchWorkflow: { workflow_id: ['manual.yml', 'manual.yml', 'manual.yml', 'missing.yml'] },
      issueDeleteStopWatch: { owner: [user.username], repo: ['repo-a'], index: ['1'] },
      repoCreateFile: { filepath: ['$new-path', '$new-path', 'README.md'] },
      repoUpdateFile: { filepath: ['edit-me.txt', 'edit-me.txt', 'README.md'] },
      repoDeleteFile: { filepath: ['edit-me.txt', 'README.md', 'nothing.txt'] },
      repoCompareDiff: { basehead: ['main...feature', 'feature...main', 'main..topic', 'nope...main'] },
      repoListGitRefs: { ref: ['heads/main', 'tags/v1', 'heads', 'nope'] },
      GetBlob: { sha: ['$blob-sha', '$blob-sha', '$commit-sha'] },
      // The package registry: each fixture owner has the generic package contract-pkg 1.0.0 (put back when deleted).
      ...Object.fromEntries(['listPackageVersions', 'getLatestPackageVersion', 'linkPackage', 'unlinkPackage', 'getPackage', 'deletePackage', 'listPackageFiles']
        .map((id) => [id, { type: ['generic', 'generic', 'npm'], name: [packageFixture, packageFixture, 'nope'], version: ['1.0.0', '1.0.0', '9'], repo_name: ['repo-a', 'repo-a', 'nope'] }])),
      repoGetArchive: { archive: ['main.zip', 'main.tar.gz', 'v1.zip', 'nope.zip'] },
    };
    const out: Record<string, string[]> = {};
    const segments = specPath.split('/');
    segments.forEach((seg, i) => {
      // A segment may hold several parameters ({index}.{diffType}).
      for (const m of seg.matchAll(/\{([^}]+)\}/g)) {
        const name = m[1]!;
        const values = byOperation[operationId]?.[name] ?? bySegment[`${segments[i - 1]}/${name}`] ?? byName[name];
        if (values) out[name] = values;
      }
    });
    return out;
  }

  // ------------------------------------------------------------------ fixtures through the API

  private async api(method: string, path: string, body?: unknown, sudo?: string): Promise<Answer> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.secrets.get('admin/caller-all')}` };
    if (body !== undefined && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
    if (sudo) headers.Sudo = sudo;
    const payload = body === undefined || body instanceof FormData ? body : JSON.stringify(body);
    const res = await fetch(`${this.app.url}/api/v1${path}`, { method, headers, body: payload });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: res.status, json };
  }

  /** A setup step; a failure is noted (and shown by the test) rather than thrown. */
  private async step(what: string, method: string, path: string, body?: unknown, sudo?: string): Promise<Answer | undefined> {
    const a = await this.api(method, path, body, sudo);
    if (a.status >= 200 && a.status < 300) return a;
    if (!this.setupProblems.some((p) => p.startsWith(`${what}:`))) {
      this.setupProblems.push(`${what}: ${method} ${path} answered ${a.status} ${JSON.stringify(a.json) ?? ''}`.slice(0, 300));
    }
    return undefined;
  }

  private data(owner: string, repo: string): RepoData {
    const key = `${owner}/${repo}`.toLowerCase();
    let d = this.repoData.get(key);
    if (!d) this.repoData.set(key, (d = {}));
    return d;
  }

  /** A fixture repository with everything the path fixtures name. */
  private async seedRepo(owner: string, name: string, isPrivate: boolean): Promise<void> {
    const isOrg = owner === this.orgs.org.name || owner === this.orgs.privateOrg.name;
    // Templates too, so that generateRepo has sources (#39).
    const options = { name, private: isPrivate, auto_init: true, template: true };
    const created = isOrg
      ? await this.step('create org repository', 'POST', `/orgs/${owner}/repos`, options)
      : await this.step('create repository', 'POST', '/user/repos', options, owner);
    if (!created) return;
    const base = `/repos/${owner}/${name}`;
    const d = this.data(owner, name);
    await this.step('apply a patch', 'POST', `${base}/diffpatch`, { content: guidePatch, message: 'Add a guide' });
    await this.restoreContents(owner, name);
    await this.restoreBranches(owner, name);
    const v1 = await this.step('create an annotated tag', 'POST', `${base}/tags`, { tag_name: 'v1', message: 'release 1' });
    const v0 = await this.step('create a lightweight tag', 'POST', `${base}/tags`, { tag_name: 'v0' });
    d.tagSha = v1?.json?.id;
    d.commitSha = v0?.json?.commit?.sha ?? v0?.json?.id;
    await this.restoreNote(owner, name);
    await this.step('add a workflow', 'POST', `${base}/diffpatch`, { content: workflowPatch, message: 'Add a workflow' });
    await this.restoreRuns(owner, name);
    await this.restoreScopedRunner(owner, name);
    await this.restoreActionSettings(base);
    for (const title of ['first issue', 'second issue']) await this.step('create an issue', 'POST', `${base}/issues`, { title, body: 'fixture' });
    // Pull request #3 (topic → main); topic2 → main is left for repoCreatePullRequest.
    for (const branch of ['topic', 'topic2']) await this.step('create a pull request head', 'POST', `${base}/diffpatch`, { content: topicPatch, new_branch: branch });
    await this.step('open a pull request', 'POST', `${base}/pulls`, { head: 'topic', base: 'main', title: 'fixture pull' });
    await this.restoreReviews(owner, name);
    await this.restoreProtection(owner, name);
    // A merged pull request, and one with a merge scheduled (restored after each merge or cancellation).
    await this.restoreMergePull(owner, name);
    const merged = d.mergePull;
    if (merged) await this.step('merge a pull request', 'POST', `${base}/pulls/${merged}/merge`, { Do: 'merge' });
    d.mergedPull = merged;
    await this.restoreMergePull(owner, name);
    const asset = await this.step('attach a file to an issue', 'POST', `${base}/issues/1/assets`, fileForm('issue.txt'));
    d.issueAssetId = asset?.json?.id;
    await this.restoreComment(owner, name);
    await this.restoreTime(owner, name);
    await this.restoreLabel(owner, name);
    await this.restoreMilestone(owner, name);
    for (const title of ['Home', 'Second']) {
      await this.step('create a wiki page', 'POST', `${base}/wiki/new`, { title, content_base64: b64(`# ${title}\n`) });
    }
    await this.restoreCollaborator(owner, name);
    await this.restoreRepoHook(owner, name);
    await this.restoreDeployKey(owner, name);
    await this.restoreRelease(owner, name);
    await this.restoreTagProtection(owner, name);
    await this.restorePushMirror(owner, name);
    await this.restoreTopics(owner, name);
    await this.restoreStars(owner, name);
  }

  /** The release of tag v1 with one asset, made again from scratch (a run may have renamed, unpublished or deleted it). */
  private async restoreRelease(owner: string, name: string): Promise<void> {
    const d = this.data(owner, name);
    const base = `/repos/${owner}/${name}/releases`;
    if (d.releaseId) await this.api('DELETE', `${base}/${d.releaseId}`);
    await this.api('DELETE', `${base}/tags/v1`);
    const rel = await this.step('create a release', 'POST', base, { tag_name: 'v1', name: 'release 1', body: 'notes' });
    d.releaseId = rel?.json?.id;
    if (!rel) return;
    const asset = await this.step('attach a file to a release', 'POST', `${base}/${d.releaseId}/assets`, fileForm('release.txt'));
    d.releaseAssetId = asset?.json?.id;
  }

  /** The tag protection rule, made again (a run may have edited or deleted it); it matches no tag a run makes. */
  private async restoreTagProtection(owner: string, name: string): Promise<void> {
    const d = this.data(owner, name);
    const base = `/repos/${owner}/${name}/tag_protections`;
    if (d.tagProtectionId) await this.api('DELETE', `${base}/${d.tagProtectionId}`);
    const rule = await this.step('protect a tag pattern', 'POST', base, { name_pattern: 'fixture-protected-*', whitelist_usernames: [this.users.admin.username] });
    d.tagProtectionId = rule?.json?.id;
  }

  /** The one push mirror (to a closed port), made again: the mirrors a run added or deleted go. */
  private async restorePushMirror(owner: string, name: string): Promise<void> {
    const d = this.data(owner, name);
    const base = `/repos/${owner}/${name}/push_mirrors`;
    const list = await this.api('GET', base);
    for (const m of (list.json as Array<{ remote_name: string }> | undefined) ?? []) await this.api('DELETE', `${base}/${m.remote_name}`);
    const m = await this.step('add a push mirror', 'POST', base, { remote_address: pushMirrorAddress, interval: '0' });
    d.pushMirrorName = m?.json?.remote_name;
  }

  /** The fixture topic (the topic operations delete and replace it). */
  private async restoreTopics(owner: string, name: string): Promise<void> {
    await this.step('set topics', 'PUT', `/repos/${owner}/${name}/topics`, { topics: ['fixture'] });
  }

  /** Stars of the site admin and, where the fixture user sees the repository, the user (the unstar operation takes them). */
  private async restoreStars(owner: string, name: string): Promise<void> {
    await this.step('star a repository', 'PUT', `/user/starred/${owner}/${name}`);
    if (owner.toLowerCase() !== this.orgs.privateOrg.name.toLowerCase()) {
      await this.step('star a repository as the user', 'PUT', `/user/starred/${owner}/${name}`, undefined, this.users.user.username);
    }
  }

  /** README.md, docs/guide.md and edit-me.txt on main (the file operations may delete or change them), and their blob shas. */
  private async restoreContents(owner: string, name: string): Promise<void> {
    const base = `/repos/${owner}/${name}/contents`;
    const d = this.data(owner, name);
    const files: Array<[string, string]> = [['README.md', `# ${name}\n`], ['docs/guide.md', '# Guide\nRead me first.\n'], ['edit-me.txt', 'edit me\n'], ['.editorconfig', 'root = true\n[*]\nindent_size = 2\n']];
    for (const [file, text] of files) {
      let got = await this.api('GET', `${base}/${file}?ref=main`);
      if (got.status === 404) {
        await this.step(`restore ${file}`, 'POST', `${base}/${file}`, { content: b64(text), branch: 'main', message: `Restore ${file}` });
        got = await this.api('GET', `${base}/${file}?ref=main`);
      }
      if (file === 'README.md') d.blobSha = got.json?.sha;
      if (file === 'edit-me.txt') d.editSha = got.json?.sha;
    }
  }

  /** A git note on the commit '$commit-sha' names (repoGetNote); notes are written by git alone, never through the API. */
  private async restoreNote(owner: string, name: string): Promise<void> {
    const sha = this.data(owner, name).commitSha;
    if (!sha) return;
    const env = { GIT_AUTHOR_NAME: 'Noter', GIT_AUTHOR_EMAIL: 'noter@example.com', GIT_COMMITTER_NAME: 'Noter', GIT_COMMITTER_EMAIL: 'noter@example.com' };
    try {
      await disk.run(repoFolder(this.app, owner, name), ['notes', 'add', '-f', '-m', 'fixture note', sha], { env });
    } catch (e) {
      this.setupProblems.push(`add a git note: ${String(e)}`.slice(0, 300));
    }
  }

  /** An ended run with one job, and a running one (seeded rows: the push → run path has its own tests). */
  private async restoreRuns(owner: string, name: string): Promise<void> {
    const repo = await this.api('GET', `/repos/${owner}/${name}`);
    if (repo.status !== 200) return;
    const [ended, open, gated, failed] = await seedRuns(this.app, repo.json, this.users.admin.id, [
      { status: 'success' }, { status: 'running', jobs: ['running'] },
      { status: 'blocked', event: 'pull_request', needApproval: true }, { status: 'failure', jobs: ['success', 'failure'] },
    ]);
    const artifact = await seedArtifact(this.app, ended!);
    Object.assign(this.data(owner, name), {
      runId: ended!.run.id, jobId: ended!.jobs[0]!.id, openRunId: open!.run.id, artifactId: artifact.id, approvalRunId: gated!.run.id, failedRunId: failed!.run.id,
    });
  }

  private async restoreDeployKey(owner: string, name: string): Promise<void> {
    const k = await this.step('add a deploy key', 'POST', `/repos/${owner}/${name}/keys`, { title: 'fixture', key: keyPair().public });
    if (k) this.data(owner, name).deployKeyId = k.json.id;
  }

  private async restoreGpgKey(): Promise<void> {
    const pair = await gpgPair(this.users.user.email);
    const k = await this.step('add a GPG key', 'POST', '/user/gpg_keys', { armored_public_key: pair.publicKey }, this.users.user.username);
    if (k) this.gpgKey = { id: k.json.id, pair };
  }

  /** Work an operation needs just before its runs: a signature of the verification token of this minute. */
  async prepare(operationId: string): Promise<void> {
    if (operationId !== 'userVerifyGPGKey' || !this.gpgKey) return;
    const token = await this.api('GET', '/user/gpg_key_token', undefined, this.users.user.username);
    this.gpgSignature = await detachedSignature(this.gpgKey.pair, String(token.json));
  }

  /** The user's unadopted folder: an adopted one loses its row (and folder) and the folder is made again. */
  private async restoreUnadopted(): Promise<void> {
    const owner = this.users.user.username;
    if ((await this.api('GET', `/repos/${owner}/${unadoptedRepo}`)).status === 200) {
      await this.step('delete the adopted repository', 'DELETE', `/repos/${owner}/${unadoptedRepo}`);
    }
    if (!folderExists(this.app, owner, unadoptedRepo)) makeFolder(this.app, owner, unadoptedRepo, { branches: ['main'] });
  }

  private async restoreVictimOrg(): Promise<void> {
    if ((await this.api('GET', `/orgs/${victimOrg}`)).status === 200) return;
    await this.step('create the victim organization', 'POST', '/orgs', { username: victimOrg }, this.users.user.username);
  }

  /** The fixture organizations' fields and visibility, the victim's too. */
  private async restoreOrgFields(): Promise<void> {
    const { org, privateOrg } = this.orgs;
    for (const [name, visibility] of [[org.name, 'public'], [privateOrg.name, 'private'], [victimOrg, 'public']] as const) {
      await this.api('PATCH', `/orgs/${name}`, { ...orgFields, visibility });
    }
  }

  /** The team `devs` of `org`, with its settings and its member (made again, under a new id, when deleted). */
  private async restoreDevs(): Promise<void> {
    const { org } = this.orgs;
    if ((await this.api('GET', `/teams/${this.devsId}`)).status === 404) {
      const made = await this.step('create the devs team', 'POST', `/orgs/${org.name}/teams`, devsTeam);
      if (!made) return;
      this.teamIds[this.teamIds.indexOf(this.devsId)] = made.json.id;
      this.devsId = made.json.id;
    } else {
      await this.step('put back the devs team', 'PATCH', `/teams/${this.devsId}`, devsTeam);
    }
    await this.step('put back the devs member', 'PUT', `/teams/${this.devsId}/members/${this.users.limited.username}`);
  }

  /** The fixture user's membership of `org` is public (orgIsPublicMember's success path). */
  private async restorePublicMember(): Promise<void> {
    const { org } = this.orgs;
    await this.step('publicize a membership', 'PUT', `/orgs/${org.name}/public_members/${this.users.user.username}`);
  }

  /** A runner of an organisation (`repo` absent) or of a repository. */
  private async restoreScopedRunner(owner: string, repo?: string): Promise<void> {
    const { runners, orgs } = this.app.services;
    const scope = repo
      ? { ownerId: 0, repoId: (await this.api('GET', `/repos/${owner}/${repo}`)).json?.id ?? 0 }
      : { ownerId: (await orgs.byName(owner))?.id ?? 0, repoId: 0 };
    const { runner } = await runners.register({ token: await runners.registrationToken(scope), name: 'scoped-runner', version: 'v0', labels: ['x'], ephemeral: false });
    if (repo) this.data(owner, repo).runnerId = runner.id;
    else this.orgRunners.set(owner.toLowerCase(), runner.id);
  }

  /** A runner of the fixture user (registered with the user's own token). */
  private async restoreUserRunner(): Promise<void> {
    const { runners } = this.app.services;
    const token = await runners.registrationToken({ ownerId: this.users.user.id, repoId: 0 });
    const { runner } = await runners.register({ token, name: 'user-runner', version: 'v0', labels: ['x'], ephemeral: false });
    this.userRunnerId = runner.id;
  }

  private async restoreRunner(): Promise<void> {
    const { runners } = this.app.services;
    const { runner } = await runners.register({ token: await runners.registrationToken(), name: 'fixture-runner', version: 'v0', labels: ['ubuntu-latest'], ephemeral: false });
    this.runnerId = runner.id;
  }

  /** The user and the limited user follow each other (what the follow checks find). */
  private async restoreFollows(): Promise<void> {
    const { user, limited } = this.users;
    await this.step('follow the limited user', 'PUT', `/user/following/${limited.username}`, undefined, user.username);
    await this.step('follow the user back', 'PUT', `/user/following/${user.username}`, undefined, limited.username);
  }

  /** The secret DEPLOY_KEY and the variable REGION of a repository, organization or user (`base`: its API path). */
  private async restoreActionSettings(base: string, sudo?: string): Promise<void> {
    const secret = await this.api('PUT', `${base}/actions/secrets/DEPLOY_KEY`, { data: 'fixture-value' }, sudo);
    if (secret.status !== 201 && secret.status !== 204) this.setupProblems.push(`secret of ${base}: ${secret.status}`);
    const variable = await this.api('PUT', `${base}/actions/variables/REGION`, { name: 'REGION', value: 'eu-west' }, sudo);
    if (variable.status === 204) return;
    const made = await this.api('POST', `${base}/actions/variables/REGION`, { value: 'eu-west' }, sudo);
    if (made.status !== 201 && made.status !== 204) this.setupProblems.push(`variable of ${base}: ${made.status}`);
  }

  private async restoreOAuth2App(): Promise<void> {
    const a = await this.step('create an OAuth2 application', 'POST', '/user/applications/oauth2', { name: 'fixture-app', redirect_uris: ['https://ci.example.com/authorize'], confidential_client: true }, this.users.user.username);
    if (a) this.oauth2AppId = a.json.id;
  }

  private async restoreUserKey(): Promise<void> {
    const k = await this.step('add a user key', 'POST', '/user/keys', { title: 'fixture', key: keyPair().public }, this.users.user.username);
    if (k) this.userKeyId = k.json.id;
  }

  /** A repository hook to a closed port (no worker runs here) with one queued test delivery. */
  private async restoreRepoHook(owner: string, name: string): Promise<void> {
    const base = `/repos/${owner}/${name}/hooks`;
    const h = await this.step('create a repository hook', 'POST', base, { type: 'gitea', config: { url: 'http://127.0.0.1:9/', content_type: 'json' }, events: ['create'] });
    if (!h) return;
    await this.step('queue a test delivery', 'POST', `${base}/${h.json.id}/tests`);
    const list = await this.step('list deliveries', 'GET', `${base}/${h.json.id}/deliveries`);
    Object.assign(this.data(owner, name), { hookId: h.json.id, hookDeliveryId: list?.json?.[0]?.id });
  }

  /** An organisation's hook (`scope` its name), the fixture user's (`@user`) or a system hook (`scope` ''), with one delivery. */
  private async restoreHook(scope: string): Promise<void> {
    const { hooks } = this.app.services;
    const body = { type: 'gitea', config: { url: 'http://127.0.0.1:9/', content_type: 'json', is_system_webhook: 'true' }, events: ['repository'], active: true };
    const org = scope === '@user' ? { id: this.users.user.id } : scope ? await this.app.services.orgs.byName(scope) : undefined;
    const hook = await hooks.create(org ? { kind: 'org', orgId: org.id } : { kind: 'admin' }, body);
    const [d] = await this.app.services.deps.db.insert(hookDeliveries).values({ hookId: hook.id, eventId: 0, guid: randomUUID(), event: 'push', eventType: 'push', payload: '{}' }).returning();
    this.hookFixtures.set(scope.toLowerCase(), { hookId: hook.id, deliveryId: d!.id });
  }

  /** A protection rule for branches no other fixture uses (protected-*). */
  private async restoreProtection(owner: string, name: string): Promise<void> {
    await this.step('protect branches', 'POST', `/repos/${owner}/${name}/branch_protections`, { rule_name: 'protected-*', enable_push: true, required_approvals: 1 });
  }

  /** The fixture user's approval of pull request 3 and the site admin's pending review of it (both made again). */
  private async restoreReviews(owner: string, name: string): Promise<void> {
    const d = this.data(owner, name);
    const path = `/repos/${owner}/${name}/pulls/3/reviews`;
    // The fixture user approves where they can see the repository (not in the private organization).
    if (owner.toLowerCase() !== this.orgs.privateOrg.name.toLowerCase()) {
      const approval = await this.step('approve pull request 3', 'POST', path, { event: 'APPROVED', body: 'fixture approval', comments: [{ path: 'topic.txt', body: 'line one', new_position: 1 }] }, this.users.user.username);
      d.reviewId = approval?.json?.id;
      if (d.reviewId) {
        const listed = await this.step('list the approval\'s line comments', 'GET', `${path}/${d.reviewId}/comments`, undefined, this.users.user.username);
        d.reviewCommentId = listed?.json?.[0]?.id;
      }
    }
    const pending = await this.step('start a pending review', 'POST', path, { event: 'PENDING', body: 'fixture draft' });
    d.pendingReviewId = pending?.json?.id;
  }

  /** A new branch with its own file, its pull request, and a merge of it scheduled for when the checks succeed. */
  private async restoreMergePull(owner: string, name: string): Promise<void> {
    const d = this.data(owner, name);
    const round = (d.mergeRounds = (d.mergeRounds ?? 0) + 1);
    const base = `/repos/${owner}/${name}`;
    const file = `merge-${round}.txt`;
    const content = [`diff --git a/${file} b/${file}`, 'new file mode 100644', '--- /dev/null', `+++ b/${file}`, '@@ -0,0 +1 @@', `+${round}`, ''].join('\n');
    await this.step('create a merge branch', 'POST', `${base}/diffpatch`, { content, new_branch: `merge-${round}` });
    const pr = await this.step('open a pull request to merge', 'POST', `${base}/pulls`, { head: `merge-${round}`, base: 'main', title: `merge ${round}` });
    d.mergePull = pr?.json?.number;
    if (d.mergePull) await this.step('schedule its merge', 'POST', `${base}/pulls/${d.mergePull}/merge`, { Do: 'merge', merge_when_checks_succeed: true });
  }

  private async restoreBranches(owner: string, name: string): Promise<void> {
    for (const branch of ['feature', 'spare']) {
      const a = await this.api('POST', `/repos/${owner}/${name}/branches`, { new_branch_name: branch });
      if (a.status !== 201 && a.status !== 409) await this.step('create a branch', 'POST', `/repos/${owner}/${name}/branches`, { new_branch_name: branch });
    }
  }

  private async restoreLabel(owner: string, name: string): Promise<void> {
    const l = await this.step('create a label', 'POST', `/repos/${owner}/${name}/labels`, { name: 'bug', color: '#ee0701' });
    this.data(owner, name).labelId = l?.json?.id;
  }

  private async restoreMilestone(owner: string, name: string): Promise<void> {
    const m = await this.step('create a milestone', 'POST', `/repos/${owner}/${name}/milestones`, { title: 'm1' });
    this.data(owner, name).milestoneId = m?.json?.id;
  }

  private async restoreOrgLabel(org: string): Promise<void> {
    const l = await this.step('create an organization label', 'POST', `/orgs/${org}/labels`, { name: 'org-bug', color: '#ee0701' });
    if (l?.json?.id) this.orgLabelIds.set(org.toLowerCase(), l.json.id);
  }

  private async restoreComment(owner: string, name: string): Promise<void> {
    const d = this.data(owner, name);
    const c = await this.step('create a comment', 'POST', `/repos/${owner}/${name}/issues/1/comments`, { body: 'a fixture comment' });
    d.commentId = c?.json?.id;
    if (!c) return;
    const asset = await this.step('attach a file to a comment', 'POST', `/repos/${owner}/${name}/issues/comments/${d.commentId}/assets`, fileForm('comment.txt'));
    d.commentAssetId = asset?.json?.id;
  }

  private async restoreTime(owner: string, name: string): Promise<void> {
    const t = await this.step('track time', 'POST', `/repos/${owner}/${name}/issues/1/times`, { time: 60 });
    this.data(owner, name).timeId = t?.json?.id;
  }

  /** The organisation's fixture board, made again when gone, reopened when closed. */
  private async restoreProject(org: string): Promise<void> {
    const key = org.toLowerCase();
    const known = this.projectFixtures.get(key);
    if (known && (await this.api('GET', `/orgs/${org}/projects/${known.projectId}`)).status === 200) {
      await this.api('PATCH', `/orgs/${org}/projects/${known.projectId}`, { state: 'open' });
      await this.api('PATCH', `/orgs/${org}/projects/${known.projectId}/columns/${known.defaultId}`, { default: true });
      const cols = await this.api('GET', `/orgs/${org}/projects/${known.projectId}/columns?limit=50`);
      if ((cols.json ?? []).some((c: { id: number }) => c.id === known.columnId)) return;
      const col = await this.step('add a project column', 'POST', `/orgs/${org}/projects/${known.projectId}/columns`, { title: 'Fixture' });
      if (col) known.columnId = col.json.id;
      return;
    }
    const p = await this.step('create a project', 'POST', `/orgs/${org}/projects`, { title: 'Fixture board', template_type: 'basic_kanban' });
    if (!p) return;
    const cols = await this.api('GET', `/orgs/${org}/projects/${p.json.id}/columns`);
    this.projectFixtures.set(key, { projectId: p.json.id, defaultId: cols.json?.[0]?.id, columnId: cols.json?.[1]?.id });
  }

  /** The fixture user's and the site admin's stopwatches on the user's repo-a issue 1 (409: already running). */
  private async restoreStopwatches(): Promise<void> {
    const path = `/repos/${this.users.user.username}/repo-a/issues/1/stopwatch/start`;
    for (const who of [this.users.user.username, undefined]) {
      const a = await this.api('POST', path, undefined, who);
      if (a.status !== 201 && a.status !== 409) this.setupProblems.push(`start a stopwatch: ${a.status} ${JSON.stringify(a.json)}`);
    }
  }

  private async restoreCollaborator(owner: string, name: string): Promise<void> {
    await this.step('add a collaborator', 'PUT', `/repos/${owner}/${name}/collaborators/${this.users.limited.username}`, { permission: 'write' });
    await this.step('add a reading collaborator', 'PUT', `/repos/${owner}/${name}/collaborators/${this.users.reader.username}`, { permission: 'read' });
  }

  /** A fixture repository as it was: re-created when gone (deleted, renamed, transferred), else its settings put back. */
  private async restoreRepo(owner: string, name: string): Promise<void> {
    const realOwner = this.repoOwners.find((o) => o.toLowerCase() === owner.toLowerCase());
    const fixture = [...repoFixtures, { name: victimRepo, private: false }].find((r) => r.name === name.toLowerCase());
    if (!realOwner || !fixture) return;
    const got = await this.api('GET', `/repos/${realOwner}/${fixture.name}`);
    if (got.status === 404) {
      if (fixture.name !== victimRepo) return this.seedRepo(realOwner, fixture.name, fixture.private);
      const isOrg = realOwner !== this.users.user.username;
      await (isOrg
        ? this.step('create a victim repository', 'POST', `/orgs/${realOwner}/repos`, { name: victimRepo })
        : this.step('create a victim repository', 'POST', '/user/repos', { name: victimRepo }, realOwner));
      return;
    }
    const r = got.json ?? {};
    if (r.name === fixture.name && r.private === fixture.private && !r.archived && r.has_issues && r.has_wiki && r.default_branch === 'main') return;
    await this.step('reset a repository', 'PATCH', `/repos/${realOwner}/${fixture.name}`, {
      name: fixture.name, private: fixture.private, archived: false, has_issues: true, has_wiki: true,
      has_pull_requests: true, external_tracker: null, external_wiki: null, default_branch: 'main',
    });
  }

  /**
   * After a transfer of a victim: a pending offer is declined (as its recipient), and a victim moved to
   * one of the recipients the narrowed bodies name is deleted there (the owner's is re-created).
   */
  private async restoreVictimTransfer(owner: string): Promise<void> {
    const realOwner = this.repoOwners.find((o) => o.toLowerCase() === owner.toLowerCase());
    if (!realOwner) return;
    const got = await this.api('GET', `/repos/${realOwner}/${victimRepo}`);
    const recipient = got.json?.repo_transfer?.recipient?.login;
    if (recipient) await this.step('decline a transfer', 'POST', `/repos/${realOwner}/${victimRepo}/transfer/reject`, undefined, recipient);
    for (const u of [this.users.limited.username, this.users.private.username]) await this.api('DELETE', `/repos/${u}/${victimRepo}`);
  }

  /** `limited` offers its repository `xfer` to the plain user, who may accept or reject it. */
  private async restoreTransfer(): Promise<void> {
    const { user, limited } = this.users;
    const at = async (o: string) => (await this.api('GET', `/repos/${o}/${transferRepo}`)).json;
    if ((await this.api('GET', `/repos/${user.username}/${transferRepo}`)).status === 200) {
      await this.step('transfer back', 'POST', `/repos/${user.username}/${transferRepo}/transfer`, { new_owner: limited.username });
    }
    if ((await this.api('GET', `/repos/${limited.username}/${transferRepo}`)).status === 404) {
      await this.step('create the transfer repository', 'POST', '/user/repos', { name: transferRepo, auto_init: true }, limited.username);
    }
    if (!(await at(limited.username))?.repo_transfer) {
      await this.step('offer a transfer', 'POST', `/repos/${limited.username}/${transferRepo}/transfer`, { new_owner: user.username }, limited.username);
    }
  }

  async restoreTokens(): Promise<void> {
    const { services } = this.app;
    for (const [key, u] of Object.entries(this.users)) {
      const { rows } = await services.tokens.list(u.id, { limit: 100_000, offset: 0 });
      const byName = new Map(rows.map((r) => [r.name, r]));
      for (const spare of spares) {
        const row = byName.get(spare) ?? (await services.tokens.create(u.id, spare, ['read:user'])).row;
        this.spareIds.set(`${u.username.toLowerCase()}/${spare}`, row.id);
      }
      const wanted = new Map(Object.values(callerTokens).filter((t) => t.owner === key).map((t) => [t.name, t]));
      for (const t of wanted.values()) {
        const id = `${key}/${t.name}`;
        if (byName.has(t.name) && this.secrets.has(id)) continue;
        if (byName.has(t.name)) await services.tokens.delete(u.id, t.name); // its value is unknown: start over
        this.secrets.set(id, (await services.tokens.create(u.id, t.name, t.scopes)).token);
      }
    }
  }

  // ------------------------------------------------------------------ around each request

  /** Notes a request that changed state, to put back what it may have consumed before the next run. */
  after(specPath: string, method: string, path: Record<string, string>, status: number, body: unknown): void {
    if (method.toLowerCase() !== 'get' && status >= 200 && status < 300) this.owed.push({ specPath, method: method.toLowerCase(), path, body });
  }

  /** The fixture generic package of `owner` (the site admin may publish anywhere; a 409 means it is there). */
  private async restorePackage(owner: string): Promise<void> {
    const res = await fetch(`${this.app.url}/api/packages/${owner}/generic/${packageFixture}/1.0.0/file.bin`, {
      method: 'PUT', headers: { Authorization: `Bearer ${this.secrets.get('admin/caller-all')}` }, body: 'contract package',
    });
    await res.arrayBuffer();
    if (res.status !== 201 && res.status !== 409 && !this.setupProblems.some((p) => p.startsWith('package:'))) this.setupProblems.push(`package: PUT answered ${res.status}`);
  }

  /** Puts back what the changing requests since the last call may have consumed. */
  async restore(): Promise<void> {
    const owed = this.owed.splice(0);
    for (const { specPath, method, path, body } of owed) {
      const { owner = '', repo = '' } = path;
      if (specPath.includes('/tokens')) await this.restoreTokens();
      if (specPath.includes('/stopwatch/')) await this.restoreStopwatches();
      // An added key is removed again (its content is one of the few fresh keys); a deleted fixture key comes back.
      const added = body as { id?: number; user?: { login?: string } } | undefined;
      if (specPath === '/user/keys' && method === 'post' && added?.id) await this.api('DELETE', `/user/keys/${added.id}`, undefined, added.user?.login);
      if ((specPath === '/user/keys/{id}' || specPath === '/admin/users/{username}/keys/{id}') && method === 'delete') await this.restoreUserKey();
      if (specPath === '/user/following/{username}' && method === 'delete') await this.restoreFollows();
      if (specPath === '/user/applications/oauth2/{id}' && method === 'delete') await this.restoreOAuth2App();
      // A deleted or renamed fixture secret or variable comes back.
      if (/\/actions\/(secrets|variables)\/\{/.test(specPath) && method !== 'get') {
        if (specPath.startsWith('/repos/') && this.isFixtureRepo(owner, repo)) await this.restoreActionSettings(`/repos/${owner}/${repo}`);
        if (specPath.startsWith('/orgs/') && path.org) await this.restoreActionSettings(`/orgs/${path.org}`);
        if (specPath.startsWith('/user/')) await this.restoreActionSettings('/user', this.users.user.username);
      }
      if (specPath.startsWith('/repos/{owner}/{repo}/tag_protections') && this.isFixtureRepo(owner, repo)) await this.restoreTagProtection(owner, repo);
      if (/\/push_mirrors(\/\{name\})?$/.test(specPath) && method !== 'get' && this.isFixtureRepo(owner, repo)) await this.restorePushMirror(owner, repo);
      if (specPath === '/admin/users/{username}/keys' && method === 'post' && added?.id) await this.api('DELETE', `/admin/users/${path.username}/keys/${added.id}`);
      if (specPath === '/admin/users/{username}/badges' && method === 'post') await this.api('DELETE', `/admin/users/${path.username}/badges`, { badge_slugs: ['fixture-badge'] });
      if (specPath === '/user/gpg_keys' && method === 'post' && added?.id) await this.api('DELETE', `/user/gpg_keys/${added.id}`, undefined, this.users.user.username);
      if (specPath === '/user/gpg_keys/{id}' && method === 'delete') await this.restoreGpgKey();
      if (specPath === '/repos/{owner}/{repo}/keys' && method === 'post' && added?.id) await this.api('DELETE', `/repos/${owner}/${repo}/keys/${added.id}`);
      if (specPath.startsWith('/orgs/{org}/projects/') && path.org) {
        // A column made by the run goes again (a board holds 20 at most); the fixture board is put back.
        const made = (body as { id?: number } | undefined)?.id;
        if (specPath === '/orgs/{org}/projects/{id}/columns' && method === 'post' && made) await this.api('DELETE', `/orgs/${path.org}/projects/${path.id}/columns/${made}`);
        await this.restoreProject(path.org);
      }
      if (specPath === '/admin/actions/runners/{runner_id}' && method === 'delete') await this.restoreRunner();
      if (specPath === '/user/actions/runners/{runner_id}' && method === 'delete') await this.restoreUserRunner();
      if (specPath.startsWith('/repos/{owner}/{repo}/contents') && this.isFixtureRepo(owner, repo)) await this.restoreContents(owner, repo);
      if (specPath === '/orgs/{org}/labels/{id}' && method === 'delete' && path.org) await this.restoreOrgLabel(path.org);
      if (specPath === '/orgs/{org}/actions/runners/{runner_id}' && method === 'delete' && path.org) await this.restoreScopedRunner(path.org);
      if (specPath === '/packages/{owner}/{type}/{name}/{version}' && method === 'delete') await this.restorePackage(owner);
      if (specPath === '/repos/{owner}/{repo}/transfer') await this.restoreVictimTransfer(owner);
      if (specPath === '/repos/{owner}/{repo}' || specPath.startsWith('/repos/{owner}/{repo}/transfer')) {
        await this.restoreRepo(owner, repo);
        if (specPath.includes('/transfer')) await this.restoreTransfer();
      }
      if (/\/hooks\/\{id\}$/.test(specPath) && method === 'delete') {
        if (specPath.startsWith('/repos/')) {
          if (this.isFixtureRepo(owner, repo)) await this.restoreRepoHook(owner, repo);
        } else await this.restoreHook(specPath.startsWith('/orgs/') ? (path.org ?? '') : specPath.startsWith('/user/') ? '@user' : '');
      }
      if (specPath === '/orgs/{org}' && method === 'delete') await this.restoreVictimOrg();
      if (specPath === '/admin/unadopted/{owner}/{repo}') await this.restoreUnadopted();
      if (specPath === '/orgs/{org}' && method === 'patch') await this.restoreOrgFields();
      if ((specPath === '/teams/{id}' || specPath === '/orgs/{org}/members/{username}') && method !== 'get') await this.restoreDevs();
      if (specPath === '/orgs/{org}/public_members/{username}' && method === 'delete') await this.restorePublicMember();
      // A new fork goes again, so that the next fork of the same repository into the same owner can be made.
      const forked = (body as { full_name?: string } | undefined)?.full_name;
      if (specPath === '/repos/{owner}/{repo}/forks' && method === 'post' && forked) await this.api('DELETE', `/repos/${forked}`);
      if (!this.isFixtureRepo(owner, repo)) continue;
      if (specPath.startsWith('/repos/{owner}/{repo}/topics')) await this.restoreTopics(owner, repo);
      if (specPath === '/user/starred/{owner}/{repo}' && method === 'delete') await this.restoreStars(owner, repo);
      // A new pull request is closed again, so that the next one for the same branches can be opened.
      const number = (body as { number?: number } | undefined)?.number;
      if (specPath === '/repos/{owner}/{repo}/pulls' && number) await this.api('PATCH', `/repos/${owner}/${repo}/pulls/${number}`, { state: 'closed' });
      if (specPath.includes('/collaborators/') && method === 'delete') await this.restoreCollaborator(owner, repo);
      if (specPath.includes('/branches/') && (method === 'delete' || method === 'patch')) await this.restoreBranches(owner, repo);
      if (specPath === '/repos/{owner}/{repo}/pulls/{index}/merge') await this.restoreMergePull(owner, repo);
      if (specPath.startsWith('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}') && method !== 'get') await this.restoreReviews(owner, repo);
      if (specPath === '/repos/{owner}/{repo}/branch_protections/{name}' && method === 'delete') await this.restoreProtection(owner, repo);
      // Gitea's deprecated alias …/issues/{index}/comments/{id} deletes the fixture comment too.
      if ((specPath.includes('/issues/comments/') || specPath.endsWith('/issues/{index}/comments/{id}')) && method === 'delete') await this.restoreComment(owner, repo);
      if (specPath === '/repos/{owner}/{repo}/labels/{id}' && method === 'delete') await this.restoreLabel(owner, repo);
      if (specPath === '/repos/{owner}/{repo}/milestones/{id}' && method === 'delete') await this.restoreMilestone(owner, repo);
      if (/\/issues\/\{index\}\/times/.test(specPath) && method === 'delete') await this.restoreTime(owner, repo);
      if (specPath === '/repos/{owner}/{repo}/keys/{id}' && method === 'delete') await this.restoreDeployKey(owner, repo);
      if (specPath.startsWith('/repos/{owner}/{repo}/actions/runs/{run}') || (specPath === '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}' && method === 'delete')) await this.restoreRuns(owner, repo);
      if (specPath === '/repos/{owner}/{repo}/actions/runners/{runner_id}' && method === 'delete') await this.restoreScopedRunner(owner, repo);
      if (specPath.startsWith('/repos/{owner}/{repo}/releases/') && method !== 'get') await this.restoreRelease(owner, repo);
    }
  }

  /**
   * Why `caller` must not get a 2xx from this request, or undefined when it may. Derived from the
   * operation's access rule in the spec (security, `x-anvil-scope`) and from what the fixtures are:
   * anonymous callers on operations that need a sign-in or on private objects, a token without the
   * operation's scope, anyone but a site admin on an admin operation, an outsider on a private object
   * or writing to a repository or organization, a reader writing to a repository.
   */
  refusalDue(operationId: string, specPath: string, access: AccessRule, path: Record<string, string>, caller: Caller): string | undefined {
    const lower = (v: string | undefined) => v?.toLowerCase();
    const owner = lower(path.owner ?? path.org), repo = lower(path.repo);
    const named = [path.owner, path.org, path.username, path.user].map(lower);
    const privorg = this.orgs.privateOrg.name.toLowerCase();
    const privateUser = this.users.private.username.toLowerCase(), limitedUser = this.users.limited.username.toLowerCase();
    const repoPath = specPath.startsWith('/repos/{owner}/{repo}');
    const orgPath = specPath.startsWith('/orgs/{org}') || specPath.startsWith('/teams/');
    // A private repository (repo-p, or any repository of the private organization), the private organization, the private user.
    const hiddenFromOutsiders = named.includes(privorg) || named.includes(privateUser) || (repoPath && repo === 'repo-p' && owner !== privateUser);
    // Limited users and organizations are seen by signed-in users only.
    const hiddenFromAnonymous = hiddenFromOutsiders || named.includes(limitedUser);
    if (caller === 'anonymous') {
      if (!access.anonymous) return 'anonymous caller on an operation that needs a signed-in one';
      if (hiddenFromAnonymous) return 'anonymous caller on a private or limited object';
      return undefined;
    }
    if (access.basicOnly && !passwordCallers.has(caller)) return 'not a password sign-in on an operation that needs one';
    if (caller === 'user:token-as-basic' && access.basicOnly) return 'a token as a password on an operation that needs a password sign-in';
    if (caller === 'user:wrong-scope' && access.scopes.some((c) => !(c === 'notification' && !access.write))) {
      return `a token with read:notification only, on an operation that needs ${access.write ? 'write' : 'read'}:${access.scopes.join('/')}`;
    }
    if (access.scopes.includes('admin') && !adminCallers.has(caller)) return 'a caller who is not a site admin on an admin operation';
    if (caller === 'outsider:token') {
      if (hiddenFromOutsiders) return 'an outsider on a private object';
      if (access.write && repoPath && !othersMayWrite.has(operationId)) return 'an outsider writing to a repository';
      if (access.write && orgPath && !othersMayWrite.has(operationId)) return 'an outsider writing to an organization';
    }
    if (caller === 'reader:token' && access.write && repoPath && this.isFixtureRepo(owner ?? '', repo ?? '') && !othersMayWrite.has(operationId)) {
      return 'a reader (read-only collaborator) writing to a repository';
    }
    return undefined;
  }

  private isFixtureRepo(owner: string, repo: string): boolean {
    return this.repoOwners.some((o) => o.toLowerCase() === owner.toLowerCase()) && repoFixtures.some((r) => r.name === repo.toLowerCase());
  }

  private tokenOf(caller: Caller): string {
    const t = callerTokens[caller]!;
    return this.secrets.get(`${t.owner}/${t.name}`)!;
  }

  /** Headers and query parameters that make the request come from `caller`. */
  private credentials(caller: Caller): { headers: Record<string, string>; query: Record<string, string> } {
    const { user, admin } = this.users;
    switch (caller) {
      case 'anonymous': return { headers: {}, query: {} };
      case 'user:basic': return { headers: { Authorization: user.basic }, query: {} };
      case 'admin:basic': return { headers: { Authorization: admin.basic }, query: {} };
      case 'user:token':
      case 'outsider:token':
      case 'reader:token':
      case 'user:wrong-scope': return { headers: { Authorization: `token ${this.tokenOf(caller)}` }, query: {} };
      case 'admin:bearer': return { headers: { Authorization: `Bearer ${this.tokenOf(caller)}` }, query: {} };
      case 'user:access_token': return { headers: {}, query: { access_token: this.tokenOf(caller) } };
      case 'user:token-as-basic': return { headers: { Authorization: basic(user.username, this.tokenOf(caller)) }, query: {} };
    }
  }

  /** Replaces `$...` placeholders with the current id or sha they stand for (of the path's user or repository). */
  resolvePath(path: Record<string, string>): Record<string, string> {
    const out = { ...path };
    const fallbackUser = this.users.user.username.toLowerCase();
    const d = this.repoData.get(`${path.owner}/${path.repo}`.toLowerCase()) ?? this.repoData.get(`${fallbackUser}/repo-a`) ?? {};
    for (const [k, v] of Object.entries(out)) {
      if (!v.startsWith('$')) continue;
      const [kind, arg = ''] = v.slice(1).split(':');
      const owner = (path.username ?? fallbackUser).toLowerCase();
      const value = {
        'token-id': this.spareIds.get(`${owner}/${arg}`) ?? this.spareIds.get(`${fallbackUser}/${arg}`),
        'tag-sha': d.tagSha,
        'blob-sha': d.blobSha,
        'new-path': `new/f${++this.newPaths}.txt`,
        'commit-sha': d.commitSha,
        'comment-id': d.commentId,
        'time-id': d.timeId,
        'deploy-key-id': d.deployKeyId,
        'user-key-id': this.userKeyId,
        'oauth2-app-id': this.oauth2AppId,
        'runner-id': this.runnerId,
        'repo-runner-id': d.runnerId,
        'org-runner-id': this.orgRunners.get((path.org ?? '').toLowerCase()),
        'user-runner-id': this.userRunnerId,
        'approval-run-id': d.approvalRunId,
        'failed-run-id': d.failedRunId,
        'run-id': d.runId,
        'open-run-id': d.openRunId,
        'job-id': d.jobId,
        'artifact-id': d.artifactId,
        'gpg-key-id': this.gpgKey?.id,
        'milestone-id': d.milestoneId,
        'label-id': d.labelId,
        'org-label-id': this.orgLabelIds.get((path.org ?? '').toLowerCase()),
        'merge-pull': d.mergePull,
        'review-id': d.reviewId,
        'pending-review-id': d.pendingReviewId,
        'review-comment-id': d.reviewCommentId,
        'merged-pull': d.mergedPull,
        'issue-asset-id': d.issueAssetId,
        'comment-asset-id': d.commentAssetId,
        'release-id': d.releaseId,
        'release-asset-id': d.releaseAssetId,
        'tag-protection-id': d.tagProtectionId,
        'repo-hook-id': d.hookId,
        'push-mirror': d.pushMirrorName,
        'repo-delivery-id': d.hookDeliveryId,
        'project-id': this.projectFixtures.get((path.org ?? '').toLowerCase())?.projectId,
        'column-id': this.projectFixtures.get((path.org ?? '').toLowerCase())?.columnId,
        'default-column-id': this.projectFixtures.get((path.org ?? '').toLowerCase())?.defaultId,
        'org-hook-id': this.hookFixtures.get((path.org ?? '').toLowerCase())?.hookId,
        'org-delivery-id': this.hookFixtures.get((path.org ?? '').toLowerCase())?.deliveryId,
        'site-hook-id': this.hookFixtures.get('')?.hookId,
        'user-hook-id': this.hookFixtures.get('@user')?.hookId,
        'site-delivery-id': this.hookFixtures.get('')?.deliveryId,
      }[kind!];
      out[k] = String(value ?? v);
    }
    return out;
  }

  /** The HTTP request for a generated one (path already resolved), as a client would send it. */
  build(method: string, specPath: string, path: Record<string, string>, req: GeneratedRequest, caller: Caller): SentRequest {
    const filled = specPath.replace(/\{([^}]+)\}/g, (_, name: string) => encodePathValue(name, wellFormed(path[name] ?? '')));
    const auth = this.credentials(caller);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query)) for (const item of [v].flat()) query.append(k, wellFormed(item));
    for (const [k, v] of Object.entries(auth.query)) query.append(k, v);
    const qs = query.toString();
    const sent: SentRequest = {
      method: method.toUpperCase(),
      url: `${this.app.url}/api/v1${filled}${qs ? `?${qs}` : ''}`,
      caller,
      headers: { ...auth.headers },
    };
    if (req.bodyKind === 'json') {
      // The blob sha a file update must name is the file's current one, known only now.
      // (And a branch update names the repository's fixture commit.)
      const d = this.repoData.get(`${path.owner}/${path.repo}`.toLowerCase());
      const shas: Record<string, string | undefined> = { '$edit-sha': d?.editSha, '$commit-sha': d?.commitSha };
      const body = JSON.parse(JSON.stringify(req.body ?? null), (_, v) => (typeof v === 'string' && shas[v] ? shas[v] : v));
      sent.headers['Content-Type'] = 'application/json';
      sent.body = JSON.stringify(body);
      sent.shown = body;
    } else if (req.bodyKind === 'multipart') {
      const form = new FormData();
      for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) {
        for (const part of [v].flat()) {
          if (typeof part === 'object' && part !== null && 'content' in part) {
            const file = part as { filename: string; content: Uint8Array };
            form.append(k, new Blob([Uint8Array.from(file.content)]), file.filename);
          } else {
            form.append(k, wellFormed(String(part)));
          }
        }
      }
      sent.body = form;
      sent.shown = req.body;
    }
    return sent;
  }
}

// ------------------------------------------------------------------ narrowed bodies

// Names that pass Gitea's rules beyond the schemas' patterns (no `..`, no trailing `.`/`-`, not reserved).
const plainName = '^[a-zA-Z0-9]{1,10}(?:[-_][a-zA-Z0-9]{1,10}){0,2}$';
const newRepo: JsonSchema = {
  properties: {
    name: { pattern: plainName },
    default_branch: { pattern: '^[a-z]{1,10}$' },
    gitignores: { const: '' },
    license: { const: '' },
    readme: { const: '' },
    issue_labels: { const: '' },
  },
};
// A patch adding one new file applies to any branch that lacks the file.
const newFilePatch = fc.stringMatching(/^[a-z]{1,12}$/).map((name) =>
  ['diff --git a/n/F.txt b/n/F.txt', 'new file mode 100644', '--- /dev/null', '+++ b/n/F.txt', '@@ -0,0 +1 @@', '+hello', ''].join('\n').replaceAll('F', name),
);

/**
 * Where an operation's rules are stricter than its schema (Gitea's name rules, a password of at least 8
 * characters, templates that must exist, a team needing some unit, a patch that applies, an existing
 * new owner), schema-valid bodies almost never succeed. These narrow the body schema (allOf: both
 * apply; the generators let the later part win). Each must stay a subset of the spec's schema.
 */
const oauth2App: JsonSchema = {
  properties: {
    name: { pattern: plainName },
    redirect_uris: { type: 'array', minItems: 1, maxItems: 1, items: { enum: ['https://ci.example.com/authorize', 'http://127.0.0.1/callback'] } },
  },
  required: ['redirect_uris'],
};

function narrowedBodies(world: World): Record<string, JsonSchema> {
  const { limited } = world.users;
  return {
    adminCreateUser: {
      properties: {
        username: { pattern: plainName },
        email: { pattern: '^[a-z0-9]{1,12}(?:\\.[a-z0-9]{1,8})?@[a-z0-9]{1,12}\\.(?:org|com|dev)$' },
        password: { minLength: 8 },
        source_id: { const: 0 },
      },
      required: ['password'],
    },
    orgCreate: { properties: { username: { pattern: plainName }, website: { const: '' } } },
    createCurrentUserRepo: newRepo,
    createOrgRepo: newRepo,
    createOrgRepoDeprecated: newRepo,
    orgCreateTeam: {
      properties: {
        name: { pattern: plainName },
        units: { type: 'array', minItems: 1, items: { enum: ['repo.code', 'repo.issues', 'repo.pulls'] } },
      },
      required: ['units'],
    },
    repoCreateBranch: {
      properties: {
        new_branch_name: { pattern: plainName },
        old_branch_name: { enum: [null, 'main', 'feature'] },
        old_ref_name: { enum: [null, 'main', 'v1', 'v0'] },
      },
    },
    repoCreateTag: { properties: { tag_name: { pattern: plainName }, target: { enum: [null, 'main', 'feature'] } } },
    // A rule needs an allow-list of existing users (random names are 422); its pattern matches no tag the fixtures use.
    repoCreateTagProtection: {
      properties: {
        name_pattern: { pattern: '^tp-[a-z0-9]{1,8}$' },
        whitelist_usernames: { type: 'array', minItems: 1, maxItems: 2, items: { enum: [world.users.admin.username, world.users.user.username] } },
        whitelist_teams: { const: null },
      },
      required: ['whitelist_usernames'],
    },
    // A push mirror's address must pass the allow list: 127.0.0.1 (a closed port: its syncs fail at once).
    repoAddPushMirror: { properties: { remote_address: { const: pushMirrorAddress }, interval: { enum: [null, '0', '8h0m0s'] } } },
    // The fixture commit (on main), forced or not (not forced: moving back is no fast-forward, 422).
    repoUpdateBranch: { properties: { new_commit_id: { const: '$commit-sha' }, old_commit_id: { const: null }, force: { enum: [true, true, null] } } },
    repoApplyDiffPatch: { properties: { branch: { enum: [null, 'main', 'feature'] }, new_branch: { enum: [null] } } },
    repoCreateFile: { properties: { content: { const: b64('hello\n') }, branch: { enum: [null, 'main', 'feature'] }, new_branch: { const: null } } },
    repoUpdateFile: {
      properties: { content: { const: b64('edited\n') }, sha: { const: '$edit-sha' }, branch: { enum: [null, 'main'] }, new_branch: { const: null }, from_path: { const: null } },
    },
    repoDeleteFile: { properties: { sha: { const: '$edit-sha' }, branch: { enum: [null, 'main'] }, new_branch: { const: null } } },
    repoChangeFiles: {
      properties: {
        files: {
          type: 'array', minItems: 1, maxItems: 1,
          items: {
            type: 'object', required: ['operation', 'path', 'content'],
            properties: { operation: { const: 'create' }, path: { pattern: '^new/[a-z]{1,12}\\.txt$' }, content: { const: b64('x\n') }, sha: { const: null }, from_path: { const: null } },
          },
        },
        branch: { enum: [null, 'main'] },
        new_branch: { const: null },
      },
    },
    repoTransfer: { properties: { new_owner: { enum: [limited.username, world.users.private.username] }, team_ids: { const: null } } },
    repoEdit: { properties: { name: { enum: [null, victimRepo] }, private: { type: 'boolean' }, archived: { type: 'boolean' } } },
    repoCreateWikiPage: { properties: { title: { pattern: plainName }, content_base64: { const: b64('# Page\n') } } },
    issueCreateLabel: { properties: { color: { pattern: '^#?[0-9a-f]{6}$' } } },
    repoCreatePullRequest: { properties: { head: { enum: ['topic2'] }, base: { const: 'main' } } },
    userCurrentPostGPGKey: { properties: { armored_public_key: { enum: world.freshGpgKeys } } },
    userVerifyGPGKey: { properties: { key_id: { enum: world.gpgKeyId ? [world.gpgKeyId] : ['0'] }, armored_signature: { enum: [world.gpgSignature || 'none'] } } },
    userCurrentPostKey: { properties: { title: { pattern: plainName }, key: { enum: world.freshKeys } } },
    adminCreatePublicKey: { properties: { title: { pattern: plainName }, key: { enum: world.freshKeys } } },
    adminAddUserBadges: { properties: { badge_slugs: { type: 'array', minItems: 1, maxItems: 1, items: { const: 'fixture-badge' } } } },
    repoCreateKey: { properties: { title: { pattern: plainName }, key: { enum: world.freshKeys } } },
    ActionsDispatchWorkflow: { properties: { ref: { const: 'main' }, inputs: { type: 'object', maxProperties: 0 } } },
    orgAddProjectColumnIssue: { properties: { issue_id: { enum: world.orgIssueIds.length ? world.orgIssueIds : [1] } } },
    repoCreatePullReview: { properties: { event: { enum: ['APPROVED', 'COMMENT', 'PENDING'] }, body: { const: 'a review' }, comments: { const: null }, commit_id: { const: null } } },
    repoSubmitPullReview: { properties: { event: { const: 'COMMENT' }, body: { const: 'submitted' } } },
    // New rules must not protect the branches other operations write (main, feature, topic...).
    repoCreateBranchProtection: { properties: { rule_name: { pattern: '^rule-[a-z0-9]{1,8}$' }, branch_name: { const: null } }, required: ['rule_name'] },
    repoCreatePullReviewRequests: { properties: { reviewers: { type: 'array', maxItems: 1, items: { enum: [world.users.user.username] } }, team_reviewers: { const: null } } },
    repoDeletePullReviewRequests: { properties: { reviewers: { type: 'array', maxItems: 1, items: { enum: [world.users.user.username] } }, team_reviewers: { const: null } } },
    // OAuth2 applications: a random string is almost never an absolute URI without a fragment.
    userCreateOAuth2Application: oauth2App,
    userUpdateOAuth2Application: oauth2App,
    // avatars: a random string is almost never base64 of a picture.
    userUpdateAvatar: { properties: { image: { const: samplePng.toString('base64') } } },
    orgUpdateAvatar: { properties: { image: { const: samplePng.toString('base64') } } },
    repoUpdateAvatar: { properties: { image: { const: samplePng.toString('base64') } } },
    // A new name in the caller's own account, with the git content (most calls are the user's).
    generateRepo: { properties: { owner: { const: world.users.user.username }, name: { pattern: '^gen-[a-z0-9]{10}$' }, git_content: { const: true } }, required: ['git_content'] },
  };
}

type Param = OperationShape['parameters'][number];
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body schema with only its required members and the narrowed ones, narrowed. */
function plainBody(schema: JsonSchema, narrowed: JsonSchema | undefined): JsonSchema {
  let out = schema;
  if (isObj(schema.properties) && !schema.allOf && !schema.oneOf && !schema.anyOf) {
    const keep = new Set([
      ...((schema.required as string[] | undefined) ?? []),
      ...Object.keys((narrowed?.properties as object | undefined) ?? {}),
      ...((narrowed?.required as string[] | undefined) ?? []),
    ]);
    out = { ...schema, properties: Object.fromEntries(Object.entries(schema.properties).filter(([k]) => keep.has(k))) };
  }
  return narrowed ? { allOf: [out, narrowed] } : out;
}

/** Path values from the fixtures only, paging within the first pages, every other optional query parameter left out. */
function plainParams(params: Param[], fixtures: Record<string, string[]>): Param[] {
  return params
    .filter((p) => p.in !== 'query' || p.required || p.name === 'page' || p.name === 'limit')
    .map((p) => {
      if (p.in === 'path' && fixtures[p.name]?.length) return { ...p, schema: { enum: fixtures[p.name] } };
      if (p.in === 'query' && p.name === 'page') return { ...p, schema: { type: 'integer', minimum: 1, maximum: 3 } };
      if (p.in === 'query' && p.name === 'limit') return { ...p, schema: { type: 'integer', minimum: 1, maximum: 50 } };
      return p;
    });
}

/**
 * Valid and invalid requests from the spec, and as many "plain" valid ones: path parameters from the
 * fixtures (mostly), only the required query parameters (and paging), and a body of its required
 * members plus the narrowed ones. The generic requests cover the spec; the plain ones the success paths.
 */
export function requestsFor(world: World, operationId: string, shape: OperationShape): fc.Arbitrary<GeneratedRequest> {
  const fixtures = world.fixturesFor(shape.path, operationId);
  const generic = anyRequest(shape, fixtures);
  const narrowed = narrowedBodies(world)[operationId];
  const json = shape.requestBody?.content['application/json'];
  const plainShape: OperationShape = {
    ...shape,
    parameters: plainParams(shape.parameters, fixtures),
    ...(json ? { requestBody: { ...shape.requestBody, content: { 'application/json': { schema: plainBody(json.schema, narrowed) } } } } : {}),
  };
  let plain = validRequest(plainShape, fixtures);
  if (operationId === 'repoApplyDiffPatch') {
    plain = fc.tuple(plain, newFilePatch).map(([r, content]) => ({ ...r, body: { ...(r.body as object), content } }));
  }
  if (operationId === 'repoGetFileContents') {
    // Its `body` query parameter is the POST body as JSON; a random string is only ever a 400.
    const files = fc.subarray(['README.md', 'docs/guide.md', 'docs', 'nothing.txt'], { minLength: 1 });
    plain = fc.tuple(plain, files).map(([r, f]) => ({ ...r, query: { ...r.query, body: JSON.stringify({ files: f }) } }));
  }
  if (shape.requestBody?.content['multipart/form-data'] && !json) {
    // Uploads must have an allowed file type (Gitea's ALLOWED_TYPES).
    plain = fc.tuple(plain, fc.constantFrom('notes.txt', 'readme.md', 'trace.log')).map(([r, filename]) => ({
      ...r,
      body: Object.fromEntries(Object.entries((r.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, isObj(v) && 'content' in v ? { ...v, filename } : v])),
    }));
  }
  return fc.oneof({ weight: 1, arbitrary: generic }, { weight: 1, arbitrary: plain });
}
