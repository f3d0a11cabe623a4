// The permission model end to end (issue 3): random organizations, teams, memberships, collaborators and
// repositories built through the API of the real app; every caller's `permissions` on GET /repos/{owner}/{repo}
// (or its 404) and the repository-wide mode of GET .../collaborators/{user}/permission must be what the
// naive oracle of tests/helpers/permissionOracle.ts computes from the same scenario.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { assertSpec } from '../helpers/spec-check.js';
import {
  expectedPermission, expectedTeam, rankOf, teamUnits, UNITS,
  type Mode, type OracleGrants, type OracleTeam, type UnitName,
} from '../helpers/permissionOracle.js';

const RUNS = 20;
const POOL = 5; // the last one is restricted

type Visibility = 'public' | 'limited' | 'private';
type Level = 'read' | 'write' | 'admin';
type MapLevel = 'none' | Level;

interface TeamSpec {
  permission?: Level;
  units?: UnitName[];
  unitsMap?: Partial<Record<UnitName, MapLevel>>;
  all: boolean;
  canCreate: boolean;
  members: number[];
}

interface Scenario {
  visibility: Visibility;
  /** Pool members added to the Owners team. */
  owners: number[];
  teams: TeamSpec[];
  repoPrivate: boolean;
  /** The repository exists before the teams (then the site admin creates it). */
  repoFirst: boolean;
  /** Who creates the repository when the teams come first: the site admin, or a pool user allowed to. */
  creator: number | 'admin';
  collaborators: Array<{ user: number; permission?: Level }>;
  /** Units switched off after creation (PATCH). */
  off: Array<'has_issues' | 'has_wiki' | 'has_pull_requests' | 'has_projects' | 'has_releases' | 'has_packages' | 'has_actions'>;
}

const poolIndex = fc.integer({ min: 0, max: POOL - 1 });
const members = fc.uniqueArray(poolIndex, { maxLength: 3 });
const level = fc.constantFrom<Level>('read', 'write', 'admin');
const teamSpec: fc.Arbitrary<TeamSpec> = fc
  .record(
    {
      permission: level,
      units: fc.uniqueArray(fc.constantFrom(...UNITS), { minLength: 1, maxLength: 5 }),
      unitsMap: fc.record(
        Object.fromEntries(UNITS.map((u) => [u, fc.constantFrom<MapLevel>('none', 'read', 'write', 'admin')])) as Record<UnitName, fc.Arbitrary<MapLevel>>,
        { requiredKeys: [] },
      ),
      all: fc.boolean(),
      canCreate: fc.boolean(),
      members,
    },
    { requiredKeys: ['all', 'canCreate', 'members'] },
  )
  // POST /orgs/{org}/teams refuses a team that grants nothing (422); only valid teams are built.
  .filter((t) => expectedTeam(teamInput(t)) !== undefined);

const scenario: fc.Arbitrary<Scenario> = fc.record({
  visibility: fc.constantFrom<Visibility>('public', 'limited', 'private'),
  owners: fc.uniqueArray(poolIndex, { maxLength: 1 }),
  teams: fc.array(teamSpec, { minLength: 1, maxLength: 3 }),
  repoPrivate: fc.boolean(),
  repoFirst: fc.boolean(),
  creator: fc.oneof(fc.constant<'admin'>('admin'), poolIndex),
  collaborators: fc.uniqueArray(fc.record({ user: poolIndex, permission: fc.option(level, { nil: undefined }) }), {
    maxLength: 3,
    selector: (c) => c.user,
  }),
  off: fc.subarray(['has_issues', 'has_wiki', 'has_pull_requests', 'has_projects', 'has_releases', 'has_packages', 'has_actions'] as const, { maxLength: 3 }),
});

function teamInput(t: TeamSpec) {
  return { permission: t.permission, units: t.units, unitsMap: t.unitsMap as Record<string, string> | undefined };
}

const unitOfSetting: Record<Scenario['off'][number], UnitName> = {
  has_issues: 'repo.issues',
  has_wiki: 'repo.wiki',
  has_pull_requests: 'repo.pulls',
  has_projects: 'repo.projects',
  has_releases: 'repo.releases',
  has_packages: 'repo.packages',
  has_actions: 'repo.actions',
};

const OWNERS_TEAM: OracleTeam = { mode: 'owner', units: teamUnits({ mode: 'owner', units: {} }) };

interface Caller {
  label: string;
  user?: TestUser;
  token?: string;
  siteAdmin: boolean;
  restricted: boolean;
  /** Index in the pool, or undefined for the site admin and the anonymous caller. */
  pool?: number;
}

/** The oracle's grants of one caller in a scenario (the site admin created the org, so sits in Owners). */
function grantsFor(s: Scenario, c: Caller, collaborations: Map<number, Mode>, asSiteAdmin = c.siteAdmin): OracleGrants {
  const signedIn = !!c.user;
  const isOwner = c.siteAdmin || (c.pool !== undefined && s.owners.includes(c.pool));
  const myTeams = c.pool === undefined ? [] : s.teams.filter((t) => t.members.includes(c.pool!));
  const member = c.siteAdmin || isOwner || myTeams.length > 0;
  const v = s.visibility;
  const ownerVisible = asSiteAdmin || member || v === 'public' || (v === 'limited' && signedIn && !c.restricted);
  const disabled = new Set(s.off.map((k) => unitOfSetting[k]));
  return {
    signedIn,
    siteAdmin: asSiteAdmin,
    restricted: c.restricted,
    owner: isOwner,
    ownerVisible,
    repoPrivate: s.repoPrivate,
    teams: [
      ...(isOwner ? [OWNERS_TEAM] : []),
      ...myTeams.filter((t) => t.all).map((t) => expectedTeam(teamInput(t))!),
    ],
    collaboration: c.pool === undefined ? undefined : collaborations.get(c.pool),
    enabledUnits: new Set(UNITS.filter((u) => !disabled.has(u) && u !== 'repo.ext_issues' && u !== 'repo.ext_wiki')),
  };
}

/** Who may create repositories in the org: site admin, owners, members of a team with can_create_org_repo. */
function mayCreate(s: Scenario, i: number): boolean {
  return s.owners.includes(i) || s.teams.some((t) => t.canCreate && t.members.includes(i));
}

let app: TestApp;
let pool: Caller[];
let adminCaller: Caller;
const anonymous: Caller = { label: 'anonymous', siteAdmin: false, restricted: false };

test.before(async () => {
  app = await startApp();
  const users = await Promise.all(Array.from({ length: POOL }, (_, i) => app.user({ restricted: i === POOL - 1 })));
  pool = await Promise.all(
    users.map(async (user, i) => ({
      label: `pool[${i}]${i === POOL - 1 ? ' (restricted)' : ''}`,
      user,
      token: await app.token(user),
      siteAdmin: false,
      restricted: i === POOL - 1,
      pool: i,
    })),
  );
  adminCaller = { label: 'site admin', user: app.admin, token: await app.token(app.admin), siteAdmin: true, restricted: false };
});

test.after(async () => {
  await app.close();
});

const ok = (what: string, status: number, want: number, error?: unknown) =>
  assert.is(status, want, `${what}: ${status} ${JSON.stringify(error ?? '')}`);

async function build(s: Scenario): Promise<{ org: string; repo: string; collaborations: Map<number, Mode> }> {
  const root = app.client(adminCaller.token);
  const org = `perm${randomBytes(4).toString('hex')}`;
  const repo = 'r';
  const collaborations = new Map<number, Mode>();

  const created = await root.POST('/orgs', { body: { username: org, visibility: s.visibility } });
  ok('create org', created.response.status, 201, created.error);
  const listed = await root.GET('/orgs/{org}/teams', { params: { path: { org } } });
  ok('list teams', listed.response.status, 200, listed.error);
  const ownersId = listed.data!.find((t) => t.name === 'Owners')!.id;
  for (const i of s.owners) {
    const r = await root.PUT('/teams/{id}/members/{username}', { params: { path: { id: ownersId, username: pool[i]!.user!.username } } });
    ok('add owner', r.response.status, 204, r.error);
  }

  const createRepo = async (by: Caller) => {
    const r = await app.client(by.token).POST('/orgs/{org}/repos', { params: { path: { org } }, body: { name: repo, private: s.repoPrivate, auto_init: false, template: false } });
    ok(`create repo as ${by.label}`, r.response.status, 201, r.error);
    assertSpec('createOrgRepo', r);
  };

  let creator = adminCaller;
  if (s.repoFirst) await createRepo(adminCaller);

  for (const [n, t] of s.teams.entries()) {
    const want = expectedTeam(teamInput(t))!;
    const r = await root.POST('/orgs/{org}/teams', {
      params: { path: { org } },
      body: {
        name: `team${n}`,
        permission: t.permission,
        units: t.units,
        units_map: t.unitsMap,
        includes_all_repositories: t.all,
        can_create_org_repo: t.canCreate,
        visibility: 'private',
      },
    });
    ok(`create team ${JSON.stringify(t)}`, r.response.status, 201, r.error);
    assertSpec('orgCreateTeam', r);
    // The answer says which units the team holds (its `permission` field is orgCreateTeam's business).
    const granted = Object.fromEntries(Object.entries(want.units).filter(([, m]) => m !== 'none'));
    assert.equal(r.data!.units_map, granted, `team units_map of ${JSON.stringify(t)}`);
    for (const i of t.members) {
      const m = await root.PUT('/teams/{id}/members/{username}', { params: { path: { id: r.data!.id, username: pool[i]!.user!.username } } });
      ok('add team member', m.response.status, 204, m.error);
    }
  }

  if (!s.repoFirst) {
    if (s.creator !== 'admin' && mayCreate(s, s.creator)) creator = pool[s.creator]!;
    await createRepo(creator);
    if (creator.pool !== undefined) {
      // The creator becomes an admin collaborator unless a team (or ownership) already makes them admin.
      const atCreation = expectedPermission(grantsFor(s, creator, collaborations, false));
      if (rankOf(atCreation.mode) < rankOf('admin')) collaborations.set(creator.pool, 'admin');
    }
  }

  for (const c of s.collaborators) {
    const r = await root.PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', {
      params: { path: { owner: org, repo, collaborator: pool[c.user]!.user!.username } },
      body: { permission: c.permission ?? null }, // null: the default, write
    });
    ok('add collaborator', r.response.status, 204, r.error);
    collaborations.set(c.user, c.permission ?? 'write');
  }

  if (s.off.length) {
    const r = await root.PATCH('/repos/{owner}/{repo}', {
      params: { path: { owner: org, repo } },
      body: Object.fromEntries(s.off.map((k) => [k, false])),
    });
    ok('switch units off', r.response.status, 200, r.error);
  }
  return { org, repo, collaborations };
}

let runs = 0;
let visibleChecks = 0;
let hiddenChecks = 0;

test('every caller\'s permissions and the collaborator permission agree with the oracle', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      runs++;
      const { org, repo, collaborations } = await build(s);
      const where = `scenario ${JSON.stringify(s)}`;
      for (const c of [...pool, adminCaller, anonymous]) {
        const want = expectedPermission(grantsFor(s, c, collaborations));
        const got = await app.client(c.token).GET('/repos/{owner}/{repo}', { params: { path: { owner: org, repo } } });
        assertSpec('repoGet', got);
        if (!want.visible) {
          hiddenChecks++;
          assert.is(got.response.status, 404, `${c.label} should not see the repository; ${where}`);
          continue;
        }
        visibleChecks++;
        assert.is(got.response.status, 200, `${c.label} should see the repository; ${where}`);
        assert.equal(
          got.data!.permissions,
          {
            admin: rankOf(want.mode) >= rankOf('admin'),
            push: rankOf(want.units['repo.code']) >= rankOf('write'),
            pull: rankOf(want.units['repo.code']) >= rankOf('read'),
          },
          `${c.label} (expected mode ${want.mode}, code ${want.units['repo.code']}); ${where}`,
        );
      }
      for (const c of [...pool, adminCaller]) {
        const want = expectedPermission(grantsFor(s, c, collaborations));
        const got = await app.client(adminCaller.token).GET('/repos/{owner}/{repo}/collaborators/{collaborator}/permission', {
          params: { path: { owner: org, repo, collaborator: c.user!.username } },
        });
        assertSpec('repoGetRepoPermissions', got);
        assert.is(got.response.status, 200, `permission of ${c.label}; ${where}`);
        assert.is(got.data!.permission, want.mode, `permission of ${c.label}; ${where}`);
        assert.is(got.data!.role_name, want.mode);
      }
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  // The scenarios must exercise both sides of visibility, or the property says little.
  assert.is(runs, RUNS);
  assert.ok(visibleChecks > 0 && hiddenChecks > 0, `visible ${visibleChecks}, hidden ${hiddenChecks}`);
});

test.run();
