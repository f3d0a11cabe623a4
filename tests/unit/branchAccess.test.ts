// Who may push, force-push and merge under a branch-protection rule (src/services/git/branchProtections.ts
// canPush, canForcePush, canMerge), with the team-membership read replaced by a fake: `make mutate` found
// the whitelists of teams, the force-push allow list and the non-writer cases untested by the git tests.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BranchProtectionRow, UserRow } from '../../src/db/schema/index.js';
import { units, type AccessMode, type Unit } from '../../src/db/schema/access.js';
import type { RepoPermission } from '../../src/permissions/repo.js';
import { BranchProtectionService, defaultSettings } from '../../src/services/git/branchProtections.js';
import type { ServiceDeps } from '../../src/services/context.js';
import type { LoadedRepo } from '../../src/services/repos/repos.js';

/** Team 7 has user 2 as its member; the fake answers the membership query the service sends. */
function service() {
  const asked: number[] = [];
  const db = {
    select: () => ({ from: () => ({ where: () => ({ limit: async () => { asked.push(1); return member ? [{ teamId: 7 }] : []; } }) }) }),
  };
  let member = false;
  const svc = new BranchProtectionService({ db } as unknown as ServiceDeps);
  return { svc, asked, setMember: (v: boolean) => (member = v) };
}
const permOf = (mode: AccessMode, unitModes: Partial<Record<Unit, AccessMode>>): RepoPermission =>
  ({ mode, units: Object.fromEntries(units.map((u) => [u, unitModes[u] ?? 'none'])) as Record<Unit, AccessMode> });
const user = { id: 2 } as UserRow;
const writer = { perm: permOf('write', { 'repo.code': 'write' }) } as unknown as LoadedRepo;
const reader = { perm: permOf('read', { 'repo.code': 'read' }) } as unknown as LoadedRepo;
const rule = (o: Partial<BranchProtectionRow['settings']>) => ({ id: 1, ruleName: 'main', priority: 0, settings: { ...defaultSettings(), ...o } }) as BranchProtectionRow;

test('canPush: code writers only; without a rule any writer; a rule needs pushes on, and the whitelist when it is on', async () => {
  const { svc, setMember, asked } = service();
  assert.ok(await svc.canPush(writer, undefined, user));
  assert.not.ok(await svc.canPush(reader, undefined, user));
  assert.not.ok(await svc.canPush(writer, undefined, null));
  assert.not.ok(await svc.canPush(writer, rule({ enablePush: false }), user));
  assert.ok(await svc.canPush(writer, rule({ enablePush: true }), user));
  assert.not.ok(await svc.canPush(reader, rule({ enablePush: true }), user));
  assert.ok(await svc.canPush(writer, rule({ enablePush: true, enablePushWhitelist: true, pushWhitelistUserIds: [2] }), user));
  assert.not.ok(await svc.canPush(writer, rule({ enablePush: true, enablePushWhitelist: true, pushWhitelistUserIds: [3] }), user));
  assert.equal(asked, [], 'no team to ask about');
  assert.not.ok(await svc.canPush(writer, rule({ enablePush: true, enablePushWhitelist: true, pushWhitelistTeamIds: [7] }), user));
  setMember(true);
  assert.ok(await svc.canPush(writer, rule({ enablePush: true, enablePushWhitelist: true, pushWhitelistTeamIds: [7] }), user));
  assert.is(asked.length, 2);
});

test('canForcePush: force pushes on, the push allowed, and the allow list when it is on', async () => {
  const { svc, setMember } = service();
  const base = { enablePush: true };
  assert.not.ok(await svc.canForcePush(writer, rule({ ...base, enableForcePush: false }), user));
  assert.ok(await svc.canForcePush(writer, rule({ ...base, enableForcePush: true }), user));
  assert.not.ok(await svc.canForcePush(reader, rule({ ...base, enableForcePush: true }), user), 'no push, no force-push');
  assert.not.ok(await svc.canForcePush(writer, rule({ enablePush: false, enableForcePush: true }), user));
  assert.ok(await svc.canForcePush(writer, rule({ ...base, enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistUserIds: [2] }), user));
  assert.not.ok(await svc.canForcePush(writer, rule({ ...base, enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistUserIds: [3] }), user));
  assert.not.ok(await svc.canForcePush(writer, rule({ ...base, enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistTeamIds: [7] }), user));
  setMember(true);
  assert.ok(await svc.canForcePush(writer, rule({ ...base, enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistTeamIds: [7] }), user));
});

test('canMerge: signed in; a code writer, or on the merge whitelist (user or team) when it is on', async () => {
  const { svc, setMember } = service();
  assert.not.ok(await svc.canMerge(writer, undefined, null));
  assert.not.ok(await svc.canMerge(writer, rule({ enableMergeWhitelist: true, mergeWhitelistUserIds: [2] }), null));
  assert.ok(await svc.canMerge(writer, undefined, user));
  assert.not.ok(await svc.canMerge(reader, undefined, user));
  assert.ok(await svc.canMerge(writer, rule({}), user));
  assert.ok(await svc.canMerge(reader, rule({ enableMergeWhitelist: true, mergeWhitelistUserIds: [2] }), user));
  assert.not.ok(await svc.canMerge(writer, rule({ enableMergeWhitelist: true, mergeWhitelistUserIds: [3] }), user));
  assert.not.ok(await svc.canMerge(writer, rule({ enableMergeWhitelist: true, mergeWhitelistTeamIds: [7] }), user));
  setMember(true);
  assert.ok(await svc.canMerge(reader, rule({ enableMergeWhitelist: true, mergeWhitelistTeamIds: [7] }), user));
});

test.run();
