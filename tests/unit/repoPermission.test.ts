// Property tests of the pure permission policy (issue 3: "the computed mode is the maximum of every grant
// and never exceeds one"), against the naive oracle in tests/helpers/permissionOracle.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { accessModes, units as srcUnits } from '../../src/db/schema/access.js';
import {
  canRead, canSeeRepo, canWrite, isRepoAdmin, repoPermission, teamUnitModes, type Grants, type RepoPermission, type TeamGrant,
} from '../../src/permissions/repo.js';
import { Invalid } from '../../src/services/errors.js';
import { teamUnitsFrom, type CreateTeamInput } from '../../src/services/orgs/teams.js';
import {
  contributions, expectedPermission, expectedTeam, EXTERNAL, MODES, rankOf, strongest, teamPermission, UNITS,
  type Mode, type UnitName,
} from '../helpers/permissionOracle.js';

const RUNS = { numRuns: 500 };

const mode = fc.constantFrom<Mode>(...MODES);
const unitModes = fc.record(Object.fromEntries(UNITS.map((u) => [u, mode])) as Record<UnitName, fc.Arbitrary<Mode>>, { requiredKeys: [] });
/** Any team, including ones whose mode disagrees with its units: the per-unit rules hold regardless. */
const anyTeam: fc.Arbitrary<TeamGrant> = fc.record({ mode, units: unitModes });
/** A team as the service stores it: admin teams their mode, the others their permission (the least granted unit). */
const storedTeam: fc.Arbitrary<TeamGrant> = fc.oneof(
  fc.record({ mode: fc.constantFrom<Mode>('admin', 'owner'), units: unitModes }),
  unitModes.map((units) => ({ mode: teamPermission({ mode: 'none', units }), units })),
);
const rarely = fc.integer({ min: 0, max: 4 }).map((n) => n === 0);
const collaboration = fc.option(fc.constantFrom<Mode>('read', 'write', 'admin'), { nil: undefined });
const enabled = fc.subarray([...UNITS]).map((us) => new Set<UnitName>(us) as ReadonlySet<UnitName>);

function grantsOf(team: fc.Arbitrary<TeamGrant>): fc.Arbitrary<Grants> {
  return fc
    .record({
      signedIn: fc.boolean(),
      siteAdmin: rarely,
      restricted: rarely,
      owner: rarely,
      ownerVisible: fc.boolean(),
      repoPrivate: fc.boolean(),
      teams: fc.array(team, { maxLength: 3 }),
      collaboration,
      enabledUnits: enabled,
    })
    // Nobody is site admin, owner or restricted without signing in (services/access.ts never says so).
    .map((g) => (g.signedIn ? g : { ...g, siteAdmin: false, owner: false, restricted: false }));
}
const grants = grantsOf(storedTeam);
const looseGrants = grantsOf(anyTeam);

const show = (g: Grants) => JSON.stringify({ ...g, enabledUnits: [...g.enabledUnits] });
const noGrants = (g: Grants): Grants => ({ ...g, siteAdmin: false, owner: false, teams: [], collaboration: undefined });
const publicRead = (g: Grants) => !g.repoPrivate && g.ownerVisible && !g.restricted;
const atMost = (p: RepoPermission, ceiling: Mode) =>
  rankOf(p.mode) <= rankOf(ceiling) && UNITS.every((u) => rankOf(p.units[u]) <= rankOf(ceiling));

test('the oracle speaks the same vocabulary as the code', () => {
  assert.equal([...accessModes], [...MODES]);
  assert.equal([...srcUnits].sort(), [...UNITS].sort());
});

test('(a) every unit is the maximum of the grants\' contributions (any team, consistent or not)', () => {
  fc.assert(
    fc.property(looseGrants, (g) => {
      const got = repoPermission(g);
      const want = expectedPermission(g);
      assert.equal(got.units, want.units, show(g));
    }),
    RUNS,
  );
});

test('(a) the repository-wide mode is the maximum of the grants\' modes (teams as stored)', () => {
  fc.assert(
    fc.property(grants, (g) => {
      const got = repoPermission(g);
      const want = expectedPermission(g);
      assert.is(got.mode, want.mode, show(g));
      assert.equal(got.units, want.units, show(g));
      assert.is(canSeeRepo(got), want.visible, show(g));
    }),
    RUNS,
  );
});

test('(b) the result never exceeds the strongest single grant, and some grant attains it', () => {
  fc.assert(
    fc.property(grants, (g) => {
      const got = repoPermission(g);
      const cs = contributions(g);
      const best = strongest(cs.map((c) => c.mode));
      assert.ok(rankOf(got.mode) <= rankOf(best), show(g));
      assert.ok(got.mode === 'none' || cs.some((c) => c.mode === got.mode), show(g));
      for (const u of UNITS) {
        assert.ok(rankOf(got.units[u]) <= rankOf(strongest(cs.map((c) => c.units[u]))), `${u} ${show(g)}`);
        assert.ok(got.units[u] === 'none' || cs.some((c) => c.units[u] === got.units[u]), `${u} ${show(g)}`);
      }
    }),
    RUNS,
  );
});

const extraGrant = fc.oneof(
  anyTeam.map((t) => (g: Grants): Grants => ({ ...g, teams: [...g.teams, t] })),
  fc.constantFrom<Mode>('read', 'write', 'admin').map((m) => (g: Grants): Grants => ({
    ...g,
    collaboration: g.collaboration && rankOf(g.collaboration) > rankOf(m) ? g.collaboration : m,
  })),
  fc.constant((g: Grants): Grants => ({ ...g, owner: g.signedIn })),
  fc.constant((g: Grants): Grants => ({ ...g, siteAdmin: g.signedIn })),
  fc.constant((g: Grants): Grants => ({ ...g, ownerVisible: true })),
);

test('(b) monotonic: adding a grant never lowers the mode or any unit', () => {
  fc.assert(
    fc.property(looseGrants, extraGrant, (g, add) => {
      const before = repoPermission(g);
      const g2 = add(g);
      const after = repoPermission(g2);
      assert.ok(rankOf(after.mode) >= rankOf(before.mode), `${show(g)} → ${show(g2)}`);
      for (const u of UNITS) assert.ok(rankOf(after.units[u]) >= rankOf(before.units[u]), `${u}: ${show(g)} → ${show(g2)}`);
      if (canSeeRepo(before)) assert.ok(canSeeRepo(after));
    }),
    RUNS,
  );
});

test('(b) without any grant: none everywhere, or read on the enabled units when the repository is publicly readable', () => {
  fc.assert(
    fc.property(looseGrants, (g0) => {
      const g = noGrants(g0);
      const got = repoPermission(g);
      const pub = publicRead(g);
      assert.is(got.mode, pub ? 'read' : 'none', show(g));
      for (const u of UNITS) assert.is(got.units[u], pub && g.enabledUnits.has(u) ? 'read' : 'none', `${u} ${show(g)}`);
      assert.is(canSeeRepo(got), pub, show(g));
    }),
    RUNS,
  );
});

test('(c) anonymous callers never get more than read, whatever teams or collaborations are passed in', () => {
  fc.assert(
    fc.property(looseGrants, (g0) => {
      const g: Grants = { ...g0, signedIn: false, siteAdmin: false, owner: false, restricted: false };
      const got = repoPermission(g);
      assert.ok(atMost(got, 'read'), show(g));
      assert.is(got.mode, !g.repoPrivate && g.ownerVisible ? 'read' : 'none', show(g));
      assert.is(canSeeRepo(got), !g.repoPrivate && g.ownerVisible, show(g));
    }),
    RUNS,
  );
});

test('(c) restricted users get nothing from a public repository: only what is granted', () => {
  fc.assert(
    fc.property(looseGrants, (g0) => {
      const g: Grants = { ...noGrants(g0), signedIn: true, restricted: true, repoPrivate: false, ownerVisible: true };
      const got = repoPermission(g);
      assert.ok(atMost(got, 'none'), show(g));
      assert.not.ok(canSeeRepo(got));
    }),
    RUNS,
  );
});

test('(d) a private repository without grants is invisible', () => {
  fc.assert(
    fc.property(looseGrants, (g0) => {
      const g: Grants = { ...noGrants(g0), repoPrivate: true };
      const got = repoPermission(g);
      assert.ok(atMost(got, 'none'), show(g));
      assert.is(canSeeRepo(got), false, show(g));
    }),
    RUNS,
  );
});

test('site admins and owners get owner on every enabled unit; disabled units are none for everybody', () => {
  fc.assert(
    fc.property(looseGrants, fc.boolean(), (g0, admin) => {
      const g: Grants = { ...g0, signedIn: true, ...(admin ? { siteAdmin: true } : { owner: true }) };
      const got = repoPermission(g);
      assert.is(got.mode, 'owner');
      for (const u of UNITS) assert.is(got.units[u], g.enabledUnits.has(u) ? 'owner' : 'none', u);
    }),
    RUNS,
  );
});

// teamUnitsFrom: what POST /orgs/{org}/teams stores.

const unitKey = fc.constantFrom<string>(...UNITS, 'repo.unknown');
const modeWord = fc.constantFrom('none', 'read', 'write', 'admin', 'owner', 'bogus');
const teamInput: fc.Arbitrary<CreateTeamInput> = fc.record(
  {
    name: fc.constant('t'),
    permission: fc.constantFrom(undefined, 'read', 'write', 'admin', 'owner', 'none', 'bogus'),
    units: fc.option(fc.uniqueArray(unitKey, { maxLength: 6 }), { nil: undefined }),
    unitsMap: fc.option(fc.dictionary(unitKey, modeWord, { maxKeys: 6 }), { nil: undefined }),
  },
  { requiredKeys: ['name'] },
);

function attempt(input: CreateTeamInput) {
  try {
    return { ok: true as const, value: teamUnitsFrom(input) };
  } catch (err) {
    return { ok: false as const, err };
  }
}

test('teamUnitsFrom agrees with the oracle: units, units_map and permission of every team', () => {
  fc.assert(
    fc.property(teamInput, (input) => {
      const want = expectedTeam(input);
      const got = attempt(input);
      if (!want) {
        assert.not.ok(got.ok, `accepted ${JSON.stringify(input)}`);
        assert.instance(got.ok ? undefined : got.err, Invalid);
        return;
      }
      assert.ok(got.ok, `refused ${JSON.stringify(input)}: ${got.ok ? '' : String(got.err)}`);
      if (!got.ok) return;
      assert.is(got.value.mode, want.mode, JSON.stringify(input));
      const granted = (u: Partial<Record<UnitName, Mode>>) => Object.fromEntries(Object.entries(u).filter(([, m]) => m !== 'none'));
      assert.equal(granted(got.value.units), granted(want.units), JSON.stringify(input));
    }),
    { numRuns: 1000 },
  );
});

test('teamUnitsFrom: admin teams get admin on every unit but read on the external ones, whatever units they name', () => {
  fc.assert(
    fc.property(teamInput, (input) => {
      const got = teamUnitsFrom({ ...input, permission: 'admin' });
      assert.is(got.mode, 'admin');
      for (const u of UNITS) assert.is(got.units[u], EXTERNAL.includes(u) ? 'read' : 'admin', u);
    }),
    RUNS,
  );
});

test('teamUnitsFrom: units_map values pass through, capped at admin', () => {
  fc.assert(
    fc.property(fc.constantFrom(undefined, 'read', 'write'), fc.dictionary(fc.constantFrom<string>(...UNITS), modeWord, { minKeys: 1 }), (permission, unitsMap) => {
      const got = attempt({ name: 't', permission, unitsMap, units: ['repo.code'] });
      const expected = Object.entries(unitsMap).map(([u, m]) => [u, m === 'owner' ? 'admin' : (MODES as readonly string[]).includes(m) ? m : 'none'] as const);
      if (!expected.some(([, m]) => m !== 'none')) {
        assert.not.ok(got.ok);
        return;
      }
      assert.ok(got.ok);
      if (!got.ok) return;
      for (const [u, m] of expected) assert.is(got.value.units[u as UnitName] ?? 'none', m, u);
      for (const m of Object.values(got.value.units)) assert.ok(rankOf(m) <= rankOf('admin'));
      assert.ok(rankOf(got.value.mode) >= rankOf('read') && rankOf(got.value.mode) <= rankOf('admin'));
    }),
    RUNS,
  );
});

test('teamUnitsFrom: a units list gives the team its permission (read when none is given), the external units read', () => {
  fc.assert(
    fc.property(fc.constantFrom(undefined, 'read', 'write'), fc.uniqueArray(fc.constantFrom(...UNITS), { minLength: 1 }), (permission, list) => {
      const got = teamUnitsFrom({ name: 't', permission, units: list });
      const level = permission ?? 'read';
      if (list.some((u) => !EXTERNAL.includes(u))) assert.is(got.mode, level, JSON.stringify(list));
      for (const u of UNITS) {
        assert.is(got.units[u] ?? 'none', !list.includes(u) ? 'none' : EXTERNAL.includes(u) ? 'read' : level, u);
      }
    }),
    RUNS,
  );
});

test('teamUnitsFrom: a team below admin with no units is refused with Invalid', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(undefined, 'read', 'write', 'none', 'bogus'),
      fc.constantFrom<CreateTeamInput['units']>(undefined, null, [], ['repo.unknown']),
      fc.constantFrom<CreateTeamInput['unitsMap']>(undefined, null, {}, { 'repo.code': 'none' }, { 'repo.unknown': 'write' }),
      (permission, unitList, unitsMap) => {
        const got = attempt({ name: 't', permission, units: unitList, unitsMap });
        assert.not.ok(got.ok, JSON.stringify({ permission, unitList, unitsMap }));
        assert.instance(got.ok ? undefined : got.err, Invalid);
      },
    ),
    { numRuns: 100 },
  );
});

test('a stored team grants, repository-wide, exactly the permission it was created with', () => {
  fc.assert(
    fc.property(teamInput, (input) => {
      const got = attempt(input);
      if (!got.ok) return;
      const g: Grants = {
        signedIn: true, siteAdmin: false, restricted: false, owner: false, ownerVisible: true, repoPrivate: true,
        teams: [got.value], enabledUnits: new Set(UNITS),
      };
      const perm = repoPermission(g);
      assert.is(perm.mode, got.value.mode, JSON.stringify(input));
      assert.ok(canSeeRepo(perm), JSON.stringify(input));
    }),
    { numRuns: 1000 },
  );
});

// Found by `make mutate` (docs/mutation.md): the predicates the services call, and the unit map of a team.

const permOf = (mode: Mode, unitModes: Partial<Record<UnitName, Mode>> = {}): RepoPermission =>
  ({ mode, units: Object.fromEntries(UNITS.map((u) => [u, unitModes[u] ?? 'none'])) as Record<UnitName, Mode> });

test('canRead, canWrite and isRepoAdmin are "at least read / write / admin"', () => {
  for (const m of MODES) {
    const p = permOf(m, { 'repo.code': m });
    assert.is(canRead(p, 'repo.code'), rankOf(m) >= rankOf('read'), m);
    assert.is(canWrite(p, 'repo.code'), rankOf(m) >= rankOf('write'), m);
    assert.is(isRepoAdmin(p), rankOf(m) >= rankOf('admin'), m);
    // Each asks about its own unit only.
    assert.not.ok(canRead(p, 'repo.issues'), m);
    assert.not.ok(canWrite(p, 'repo.issues'), m);
  }
});

test('canSeeRepo: the repository-wide mode, or any one readable unit', () => {
  assert.not.ok(canSeeRepo(permOf('none')));
  assert.ok(canSeeRepo(permOf('read')));
  assert.ok(canSeeRepo(permOf('none', { 'repo.issues': 'read' })), 'one readable unit is enough');
  assert.ok(canSeeRepo(permOf('none', { 'repo.wiki': 'write' })));
});

test('teamUnitModes: a team below admin its own units (none where it grants nothing); admin teams their mode but read on the external units', () => {
  const writer = teamUnitModes({ mode: 'write', units: { 'repo.code': 'write', 'repo.issues': 'read' } });
  for (const u of UNITS) assert.is(writer[u], u === 'repo.code' ? 'write' : u === 'repo.issues' ? 'read' : 'none', u);
  for (const mode of ['admin', 'owner'] as const) {
    const admin = teamUnitModes({ mode, units: { 'repo.code': 'read' } });
    for (const u of UNITS) assert.is(admin[u], EXTERNAL.includes(u) ? 'read' : mode, `${mode} ${u}`);
  }
});

test('a team below admin counts, repository-wide, for the least unit it grants, whatever mode is stored with it', () => {
  const g: Grants = {
    signedIn: true, siteAdmin: false, restricted: false, owner: false, ownerVisible: true, repoPrivate: true,
    teams: [{ mode: 'read', units: { 'repo.code': 'write', 'repo.issues': 'write' } }], enabledUnits: new Set(UNITS),
  };
  assert.is(repoPermission(g).mode, 'write');
  assert.is(repoPermission({ ...g, teams: [{ mode: 'write', units: { 'repo.code': 'read' } }] }).mode, 'read');
});

test.run();
