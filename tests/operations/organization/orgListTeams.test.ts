import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, adminActor, allUnits, createTeam, linksOf, orgWorld, unitsAt, type Actor, type OrgWorld, type Team,
} from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

interface World extends OrgWorld {
  limitedTeam: Team;
  publicTeam: Team;
}

let app: TestApp;
let pub: World;
let limited: World;
let priv: World;
let restricted: Actor;
let admin: Actor;

async function world(visibility: 'public' | 'limited' | 'private'): Promise<World> {
  const w = await orgWorld(app, visibility);
  const limitedTeam = await createTeam(app, w.owner, w.org.name, { name: 'limited-team', visibility: 'limited', units: ['repo.issues'], permission: 'write' });
  const publicTeam = await createTeam(app, w.owner, w.org.name, { name: 'Public-Team', visibility: 'public', permission: 'admin' });
  return { ...w, limitedTeam, publicTeam };
}

test.before(async () => {
  app = await startApp();
  [pub, limited, priv, restricted, admin] = await Promise.all([world('public'), world('limited'), world('private'), actor(app, { restricted: true }), adminActor(app)]);
});
test.after(async () => {
  await app.close();
});

const list = (org: string, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/orgs/{org}/teams', { params: { path: { org }, query } });

async function expectTeams(w: World, auth: string, expected: Team[], label: string) {
  const res = await list(w.org.name, auth);
  assert.is(res.response.status, 200, label);
  assertSpec('orgListTeams', res);
  assert.equal(res.data!.map((t) => t.name), expected.map((t) => t.name), label);
  assert.is(res.response.headers.get('x-total-count'), String(expected.length), `${label}: X-Total-Count`);
  return res.data!;
}

async function expect404(org: string, auth: string, label: string) {
  const res = await list(org, auth);
  assert.is(res.response.status, 404, label);
  assertSpec('orgListTeams', res);
  assert.is(await res.response.text(), '', label);
}

// Ordered by name, case-insensitively: creators, limited-team, Owners, Public-Team, readers.
const all = (w: World) => [w.creators, w.limitedTeam, w.owners, w.publicTeam, w.readers];

test('200: org owners and site admins list every team, ordered by name', async () => {
  for (const w of [pub, limited, priv]) {
    await expectTeams(w, w.owner.auth, all(w), `${w.org.visibility} owner`);
    await expectTeams(w, admin.auth, all(w), `${w.org.visibility} admin`);
  }
  await expectTeams(pub, pub.owner.basic, all(pub), 'owner with Basic');
});

test('200: the listed teams are complete, with organization null', async () => {
  const teams = await expectTeams(pub, pub.owner.auth, all(pub), 'owner');
  const byName = Object.fromEntries(teams.map((t) => [t.name, t]));
  const sorted = (t: Team) => ({ ...t, units: [...t.units].sort() });
  assert.equal(sorted(byName.Owners!), {
    id: pub.owners.id, name: 'Owners', description: '', organization: null, can_create_org_repo: true,
    includes_all_repositories: true, permission: 'owner', units: [...allUnits].sort(), units_map: unitsAt('owner'), visibility: 'private',
  });
  assert.equal(sorted(byName['Public-Team']!), {
    id: pub.publicTeam.id, name: 'Public-Team', description: '', organization: null, can_create_org_repo: false,
    includes_all_repositories: false, permission: 'admin', units: [...allUnits].sort(), units_map: unitsAt('admin'), visibility: 'public',
  });
  assert.equal(byName['limited-team'], { ...pub.limitedTeam, organization: null });
  assert.equal(byName.readers, { ...pub.readers, organization: null });
  assert.equal(byName.creators, { ...pub.creators, organization: null });
  assert.equal(byName.creators!.units_map, { 'repo.code': 'write' });
  assert.is(byName.creators!.can_create_org_repo, true);
});

test('200: a member sees their own private teams, the limited and the public ones', async () => {
  for (const w of [pub, limited, priv]) {
    await expectTeams(w, w.member.auth, [w.limitedTeam, w.publicTeam, w.readers], `${w.org.visibility} member (no can_create_org_repo)`);
    await expectTeams(w, w.creator.auth, [w.creators, w.limitedTeam, w.publicTeam], `${w.org.visibility} member with can_create_org_repo`);
  }
});

test('200: a signed-in non-member sees only the public teams of a visible org', async () => {
  await expectTeams(pub, pub.outsider.auth, [pub.publicTeam], 'outsider on public org');
  await expectTeams(limited, limited.outsider.auth, [limited.publicTeam], 'outsider on limited org');
  await expectTeams(pub, restricted.auth, [pub.publicTeam], 'restricted on public org');
  await expectTeams(pub, limited.owner.auth, [pub.publicTeam], 'owner of another org');
});

test('404: the org is invisible — private to outsiders, limited to restricted users, or unknown', async () => {
  await expect404(priv.org.name, priv.outsider.auth, 'outsider on private');
  await expect404(priv.org.name, pub.owner.auth, 'owner of another org on private');
  await expect404(limited.org.name, restricted.auth, 'restricted on limited');
  await expect404('no-such-org', admin.auth, 'unknown');
  await expect404(pub.owner.username, admin.auth, 'a user name');
});

test('401: anonymous callers and wrong credentials', async () => {
  for (const auth of [undefined, `token ${'c'.repeat(40)}`]) {
    const res = await list(pub.org.name, auth);
    assert.is(res.response.status, 401, String(auth));
    assertSpec('orgListTeams', res);
  }
  const anon = await list(pub.org.name);
  assert.equal(anon.error, { message: 'token is required', url: `${app.config.rootUrl}api/swagger` });
});

test('403: a token without read:organization; read:organization is enough', async () => {
  const wrong = await app.token(pub.owner, ['read:issue']);
  const res = await list(pub.org.name, wrong);
  assert.is(res.response.status, 403);
  assertSpec('orgListTeams', res);
  assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [read:organization]', url: `${app.config.rootUrl}api/swagger` });
  const right = await app.token(pub.member, ['read:organization']);
  await expectTeams(pub, right, [pub.limitedTeam, pub.publicTeam, pub.readers], 'read:organization');
});

test('200: pagination — limit, page, X-Total-Count and Link', async () => {
  const names = all(pub).map((t) => t.name);
  const first = await list(pub.org.name, pub.owner.auth, { limit: 2 });
  assert.is(first.response.status, 200);
  assertSpec('orgListTeams', first);
  assert.equal(first.data!.map((t) => t.name), names.slice(0, 2));
  assert.is(first.response.headers.get('x-total-count'), '5');
  assert.equal(linksOf(first.response.headers.get('link')), { next: { page: 2, limit: 2 }, last: { page: 3, limit: 2 } });
  const second = await list(pub.org.name, pub.owner.auth, { page: 2, limit: 2 });
  assert.equal(second.data!.map((t) => t.name), names.slice(2, 4));
  const last = await list(pub.org.name, pub.owner.auth, { page: 3, limit: 2 });
  assert.equal(last.data!.map((t) => t.name), names.slice(4));
  assert.equal(linksOf(last.response.headers.get('link')), { first: { page: 1, limit: 2 }, prev: { page: 2, limit: 2 } });

  // The total counts only what the caller may see.
  const member = await list(pub.org.name, pub.member.auth, { limit: 1 });
  assert.is(member.response.headers.get('x-total-count'), '3');
  assert.equal(member.data!.map((t) => t.name), ['limited-team']);
});

test('422: page or limit that are not integers', async () => {
  const res = await fetch(`${app.url}/api/v1/orgs/${pub.org.name}/teams?limit=many`, { headers: { Authorization: pub.owner.auth } });
  assert.is(res.status, 422);
  const body = await res.json();
  assertSpec('orgListTeams', { response: res, error: body });
  assert.match(body.message, /\[limit\]/);
});

test.run();
