// The pre-receive rules a push is checked against (pushRules) and what blocks a merge (mergeBlocker) in
// src/services/git/branchProtections.ts, without git or a database: the repository's rules and the
// team-membership read are faked. `make mutate` (group branch-push-merge) found these reached only by
// the slow git and pull-request tests; each case below kills mutants those left alive.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { units, type AccessMode, type Unit } from '../../src/db/schema/access.js';
import type { BranchProtectionRow, PullReviewRow, UserRow } from '../../src/db/schema/index.js';
import type { RepoPermission } from '../../src/permissions/repo.js';
import type { ServiceDeps } from '../../src/services/context.js';
import { BranchProtectionService, defaultSettings } from '../../src/services/git/branchProtections.js';
import type { LoadedRepo } from '../../src/services/repos/repos.js';

type Settings = BranchProtectionRow['settings'];

/** The service with `rules` as the repository's rules (in their order) and user 2 a member of team 7 when `member`. */
function service(rules: BranchProtectionRow[] = [], member = false) {
  const asked: number[] = [];
  const db = { select: () => ({ from: () => ({ where: () => ({ limit: async () => { asked.push(1); return member ? [{ teamId: 7 }] : []; } }) }) }) };
  const svc = new BranchProtectionService({ db } as unknown as ServiceDeps);
  const askedFor: number[] = [];
  svc.rules = async (repoId: number) => {
    askedFor.push(repoId);
    return rules;
  };
  return { svc, asked, askedFor };
}
const permOf = (mode: AccessMode, unitModes: Partial<Record<Unit, AccessMode>>): RepoPermission =>
  ({ mode, units: Object.fromEntries(units.map((u) => [u, unitModes[u] ?? 'none'])) as Record<Unit, AccessMode> });
const user = { id: 2 } as UserRow;
const repo = (mode: 'write' | 'read') => ({ repo: { id: 41 }, perm: permOf(mode, { 'repo.code': mode }) }) as unknown as LoadedRepo;
const writer = repo('write');
const reader = repo('read');
let ids = 0;
const rule = (ruleName: string, o: Partial<Settings> = {}) => ({ id: ++ids, ruleName, priority: 0, settings: { ...defaultSettings(), ...o } }) as BranchProtectionRow;

// ---------------------------------------------------------------- pushRules

test('pushRules: no rule, no line; the rules of the repository asked for, one line each in their order', async () => {
  const none = service([]);
  assert.is(await none.svc.pushRules(writer, user), '');
  assert.equal(none.askedFor, [41]);
  const { svc } = service([rule('main', { enablePush: true }), rule('release/*'), rule('dev', { enablePush: true, enableForcePush: true })]);
  assert.is(await svc.pushRules(writer, user), 'noforce\tmain\ndeny\trelease/[^/]*\nforce\tdev');
});

test('pushRules: a rule name is matched literally, every regular-expression character escaped; a glob becomes its regular expression', async () => {
  const name = 'v1.0+rc^x$y{2}(a)|b]\\c';
  const { svc } = service([rule(name, { enablePush: true }), rule('**/v?', { enablePush: true }), rule('a.b*')]);
  const lines = (await svc.pushRules(writer, user)).split('\n');
  assert.is(lines[0], 'noforce\tv1\\.0\\+rc\\^x\\$y\\{2\\}\\(a\\)\\|b\\]\\\\c');
  const literal = new RegExp(`^${lines[0]!.split('\t')[1]}$`);
  assert.ok(literal.test(name));
  for (const near of ['v1x0+rc^x$y{2}(a)|b]\\c', 'v1.00rc^x$y{2}(a)|b]\\c', 'b]\\c', 'v1.0+rc^x$y{2}(a)']) assert.not.ok(literal.test(near), near);
  assert.is(lines[1], 'noforce\t.*/v[^/]');
  assert.is(lines[2], 'deny\ta\\.b[^/]*');
});

test('pushRules for a user: deny where they may not push, force where they may force-push, noforce otherwise', async () => {
  const rules = [
    rule('off', { enablePush: false, enableForcePush: true }),
    rule('on', { enablePush: true }),
    rule('force', { enablePush: true, enableForcePush: true }),
    rule('listed', { enablePush: true, enablePushWhitelist: true, pushWhitelistUserIds: [2], enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistUserIds: [3] }),
    rule('unlisted', { enablePush: true, enablePushWhitelist: true, pushWhitelistUserIds: [3], enableForcePush: true }),
    rule('team', { enablePush: true, enablePushWhitelist: true, pushWhitelistTeamIds: [7], enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistTeamIds: [7] }),
  ];
  assert.is(await service(rules).svc.pushRules(writer, user), 'deny\toff\nnoforce\ton\nforce\tforce\nnoforce\tlisted\ndeny\tunlisted\ndeny\tteam');
  assert.is(await service(rules, true).svc.pushRules(writer, user), 'deny\toff\nnoforce\ton\nforce\tforce\nnoforce\tlisted\ndeny\tunlisted\nforce\tteam');
  // A reader pushes nowhere, whatever the rule says.
  assert.is(await service(rules, true).svc.pushRules(reader, user), 'deny\toff\ndeny\ton\ndeny\tforce\ndeny\tlisted\ndeny\tunlisted\ndeny\tteam');
  // A deploy key is not the user: the whitelists of users do not let it in.
  assert.is(await service(rules, true).svc.pushRules(writer, user, true), 'deny\toff\nnoforce\ton\nforce\tforce\ndeny\tlisted\ndeny\tunlisted\ndeny\tteam');
});

test('pushRules for a deploy key: every combination of the six settings that concern it', async () => {
  const keys = ['enablePush', 'enablePushWhitelist', 'pushWhitelistDeployKeys', 'enableForcePush', 'enableForcePushAllowlist', 'forcePushAllowlistDeployKeys'] as const;
  for (let bits = 0; bits < 64; bits++) {
    const s = Object.fromEntries(keys.map((k, i) => [k, !!(bits & (1 << i))])) as Record<(typeof keys)[number], boolean>;
    // Gitea: a deploy key pushes when pushes are on and, with a whitelist, the whitelist lets deploy keys in; the same for force pushes on top.
    const push = s.enablePush && (!s.enablePushWhitelist || s.pushWhitelistDeployKeys);
    const force = push && s.enableForcePush && (!s.enableForcePushAllowlist || s.forcePushAllowlistDeployKeys);
    const { svc, asked } = service([rule('main', s)], true);
    assert.is(await svc.pushRules(reader, user, true), `${push ? (force ? 'force' : 'noforce') : 'deny'}\tmain`, JSON.stringify(s));
    assert.equal(asked, [], 'a deploy key is on no team');
  }
});

// ---------------------------------------------------------------- mergeBlocker

let reviewIds = 0;
const review = (reviewerId: number, type: PullReviewRow['type'], o: Partial<PullReviewRow> = {}) =>
  ({ id: ++reviewIds, reviewerId, teamId: 0, type, commitId: 'head', official: true, dismissed: false, ...o }) as PullReviewRow;
const pr = (reviews: PullReviewRow[], o: { state?: string; headContainsBase?: boolean } = {}) => {
  const asked: string[][] = [];
  return {
    asked,
    pr: {
      headSha: 'head', headContainsBase: o.headContainsBase ?? true, reviews,
      headState: async (contexts: string[]) => {
        asked.push(contexts);
        return o.state ?? 'success';
      },
    },
  };
};
const blocker = (s: Partial<Settings>, p: ReturnType<typeof pr>['pr'], member = false) => service([], member).svc.mergeBlocker(rule('main', s), p);

test('mergeBlocker: nothing required, nothing blocks', async () => {
  const p = pr([review(5, 'reject'), review(6, 'request')], { state: 'failure', headContainsBase: false });
  assert.is(await blocker({}, p.pr), undefined);
  assert.equal(p.asked, [], 'the status is not asked for when no check is required');
});

test('mergeBlocker: required status checks are asked for with their contexts and must all be successful', async () => {
  const contexts = ['ci/build', 'ci/test'];
  for (const [state, blocked] of [['success', false], ['pending', true], ['failure', true], ['error', true], ['', true]] as const) {
    const p = pr([], { state });
    assert.is(await blocker({ enableStatusCheck: true, statusCheckContexts: contexts }, p.pr), blocked ? 'Not all required status checks successful' : undefined, state);
    assert.equal(p.asked, [contexts]);
  }
  // Checks on but no context named, or contexts named but checks off: nothing is asked.
  for (const s of [{ enableStatusCheck: true, statusCheckContexts: [] }, { enableStatusCheck: false, statusCheckContexts: contexts }]) {
    const p = pr([], { state: 'failure' });
    assert.is(await blocker(s, p.pr), undefined);
    assert.equal(p.asked, []);
  }
});

test('mergeBlocker: required approvals count official approvals, the latest submitted review of each reviewer', async () => {
  const two = { requiredApprovals: 2 };
  assert.is(await blocker(two, pr([]).pr), 'Does not have enough approvals (0 of 2)');
  assert.is(await blocker(two, pr([review(5, 'approve')]).pr), 'Does not have enough approvals (1 of 2)');
  assert.is(await blocker(two, pr([review(5, 'approve'), review(6, 'approve')]).pr), undefined);
  assert.is(await blocker(two, pr([review(5, 'approve'), review(6, 'approve'), review(7, 'approve')]).pr), undefined);
  // The same reviewer twice is one approval.
  assert.is(await blocker(two, pr([review(5, 'approve'), review(5, 'approve')]).pr), 'Does not have enough approvals (1 of 2)');
  // An unofficial approval does not count.
  assert.is(await blocker(two, pr([review(5, 'approve'), review(6, 'approve', { official: false })]).pr), 'Does not have enough approvals (1 of 2)');
  // A later request for changes replaces an approval; a later approval replaces a request for changes.
  assert.is(await blocker(two, pr([review(5, 'approve'), review(6, 'approve'), review(6, 'reject')]).pr), 'Does not have enough approvals (1 of 2)');
  assert.is(await blocker(two, pr([review(5, 'approve'), review(6, 'reject'), review(6, 'approve')]).pr), undefined);
  // Pending reviews, plain comments and dismissed reviews are not submitted verdicts: the earlier approval stands.
  for (const later of [review(6, 'pending'), review(6, 'comment'), review(6, 'reject', { dismissed: true })]) {
    assert.is(await blocker(two, pr([review(5, 'approve'), review(6, 'approve'), later]).pr), undefined, later.type);
  }
  // A dismissed approval does not count, nor a review with no reviewer (a team's request).
  assert.is(await blocker(two, pr([review(5, 'approve'), review(6, 'approve', { dismissed: true })]).pr), 'Does not have enough approvals (1 of 2)');
  assert.is(await blocker(two, pr([review(5, 'approve'), review(0, 'approve')]).pr), 'Does not have enough approvals (1 of 2)');
});

test('mergeBlocker: an approval of an older head counts unless stale approvals are dismissed or ignored', async () => {
  const reviews = [review(5, 'approve'), review(6, 'approve', { commitId: 'old' })];
  assert.is(await blocker({ requiredApprovals: 2 }, pr(reviews).pr), undefined);
  assert.is(await blocker({ requiredApprovals: 2, dismissStaleApprovals: true }, pr(reviews).pr), 'Does not have enough approvals (1 of 2)');
  assert.is(await blocker({ requiredApprovals: 2, ignoreStaleApprovals: true }, pr(reviews).pr), 'Does not have enough approvals (1 of 2)');
  assert.is(await blocker({ requiredApprovals: 1, dismissStaleApprovals: true, ignoreStaleApprovals: true }, pr(reviews).pr), undefined);
  // The approval of the head itself always counts; only the older one goes (make mutate: the comparison turned round survived the above).
  for (const stale of [{ dismissStaleApprovals: true }, { ignoreStaleApprovals: true }]) {
    assert.is(await blocker({ requiredApprovals: 1, ...stale }, pr([review(5, 'approve')]).pr), undefined);
    assert.is(await blocker({ requiredApprovals: 1, ...stale }, pr([review(6, 'approve', { commitId: 'old' })]).pr), 'Does not have enough approvals (0 of 1)');
  }
});

test('mergeBlocker: with an approvals whitelist, approvals of listed users or team members count, official or not', async () => {
  const s = { requiredApprovals: 1, enableApprovalsWhitelist: true };
  const unofficial = (id: number) => review(id, 'approve', { official: false });
  assert.is(await blocker({ ...s, approvalsWhitelistUserIds: [2] }, pr([unofficial(2)]).pr), undefined);
  assert.is(await blocker({ ...s, approvalsWhitelistUserIds: [3] }, pr([review(2, 'approve')]).pr), 'Does not have enough approvals (0 of 1)');
  assert.is(await blocker({ ...s, approvalsWhitelistTeamIds: [7] }, pr([unofficial(2)]).pr, false), 'Does not have enough approvals (0 of 1)');
  assert.is(await blocker({ ...s, approvalsWhitelistTeamIds: [7] }, pr([unofficial(2)]).pr, true), undefined);
  // The whitelist off: only official approvals count, whoever is listed.
  assert.is(await blocker({ requiredApprovals: 1, approvalsWhitelistUserIds: [2] }, pr([unofficial(2)]).pr), 'Does not have enough approvals (0 of 1)');
});

test('mergeBlocker: official requests for changes, pending review requests and an outdated head block when their setting is on', async () => {
  assert.is(await blocker({ blockOnRejectedReviews: true }, pr([review(5, 'reject')]).pr), 'There are official requests for changes');
  assert.is(await blocker({ blockOnRejectedReviews: true }, pr([review(5, 'reject', { official: false })]).pr), undefined);
  assert.is(await blocker({ blockOnRejectedReviews: true }, pr([review(5, 'approve')]).pr), undefined);
  assert.is(await blocker({ blockOnRejectedReviews: true }, pr([review(5, 'reject'), review(5, 'approve')]).pr), undefined, 'the latest review counts');
  assert.is(await blocker({ blockOnOfficialReviewRequests: true }, pr([review(5, 'request')]).pr), 'There are official review requests');
  assert.is(await blocker({ blockOnOfficialReviewRequests: true }, pr([review(5, 'approve')]).pr), undefined);
  assert.is(await blocker({ blockOnOfficialReviewRequests: true }, pr([review(5, 'request'), review(5, 'approve')]).pr), undefined, 'answered since');
  assert.is(await blocker({ blockOnOutdatedBranch: true }, pr([], { headContainsBase: false }).pr), 'The head branch is behind the base branch');
  assert.is(await blocker({ blockOnOutdatedBranch: true }, pr([], { headContainsBase: true }).pr), undefined);
});

test('mergeBlocker: the first reason in Gitea\'s order is given (checks, approvals, changes requested, review requests, outdated head)', async () => {
  const all = {
    enableStatusCheck: true, statusCheckContexts: ['ci'], requiredApprovals: 1,
    blockOnRejectedReviews: true, blockOnOfficialReviewRequests: true, blockOnOutdatedBranch: true,
  };
  const worst = [review(5, 'reject'), review(6, 'request')];
  assert.is(await blocker(all, pr(worst, { state: 'failure', headContainsBase: false }).pr), 'Not all required status checks successful');
  assert.is(await blocker(all, pr(worst, { headContainsBase: false }).pr), 'Does not have enough approvals (0 of 1)');
  const approved = [review(7, 'approve'), ...worst];
  assert.is(await blocker(all, pr(approved, { headContainsBase: false }).pr), 'There are official requests for changes');
  assert.is(await blocker(all, pr([review(7, 'approve'), review(6, 'request')], { headContainsBase: false }).pr), 'There are official review requests');
  assert.is(await blocker(all, pr([review(7, 'approve')], { headContainsBase: false }).pr), 'The head branch is behind the base branch');
  assert.is(await blocker(all, pr([review(7, 'approve')]).pr), undefined);
});

test.run();
