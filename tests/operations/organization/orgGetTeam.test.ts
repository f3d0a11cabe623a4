import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, allUnits, createTeam, orgWorld, unitsAt, type Actor, type OrgWorld, type Team } from '../../helpers/orgs.js';
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
  const limitedTeam = await createTeam(app, w.owner, w.org.name, { name: 'insiders', visibility: 'limited', units_map: { 'repo.issues': 'write' } });
  const publicTeam = await createTeam(app, w.owner, w.org.name, { name: 'everyone', visibility: 'public', permission: 'admin', description: 'open to all' });
  return { ...w, limitedTeam, publicTeam };
}

test.before(async () => {
  app = await startApp();
  [pub, limited, priv, restricted, admin] = await Promise.all([world('public'), world('limited'), world('private'), actor(app, { restricted: true }), adminActor(app)]);
});
test.after(async () => {
  await app.close();
});

const get = (id: number, auth?: string) => app.client(auth).GET('/teams/{id}', { params: { path: { id } } });
const sortedUnits = (t: Team) => ({ ...t, units: [...t.units].sort() });

async function expectTeam(team: Team, auth: string, label: string) {
  const res = await get(team.id, auth);
  assert.is(res.response.status, 200, label);
  assertSpec('orgGetTeam', res);
  assert.equal(sortedUnits(res.data!), sortedUnits(team), label);
  return res.data!;
}

async function expect404(id: number, auth: string, label: string) {
  const res = await get(id, auth);
  assert.is(res.response.status, 404, label);
  assertSpec('orgGetTeam', res);
  assert.is(await res.response.text(), '', label);
}

test('200: the whole Team with its organization', async () => {
  const team = await expectTeam(pub.publicTeam, pub.outsider.auth, 'outsider on a public team');
  assert.equal(sortedUnits(team), {
    id: pub.publicTeam.id,
    name: 'everyone',
    description: 'open to all',
    organization: pub.org,
    can_create_org_repo: false,
    includes_all_repositories: false,
    permission: 'admin',
    units: [...allUnits].sort(),
    units_map: unitsAt('admin'),
    visibility: 'public',
  });
  const owners = await expectTeam(pub.owners, pub.owner.auth, 'Owners');
  assert.equal({ ...owners.organization }, pub.org);
  assert.is(owners.permission, 'owner');
  assert.equal(owners.units_map, unitsAt('owner'));
  const insiders = await expectTeam(pub.limitedTeam, pub.member.auth, 'limited team');
  assert.equal(insiders.units_map, { 'repo.issues': 'write' });
  assert.equal(insiders.units, ['repo.issues']);
  assert.is(insiders.permission, 'none');
});

test('200: Basic authentication, and a token with read:organization', async () => {
  await expectTeam(priv.readers, priv.member.basic, 'Basic');
  await expectTeam(priv.readers, await app.token(priv.member, ['read:organization']), 'read:organization');
});

test('private team: its members, org owners and site admins; other members and outsiders 404', async () => {
  for (const w of [pub, limited, priv]) {
    const v = w.org.visibility;
    await expectTeam(w.readers, w.member.auth, `${v}: team member`);
    await expectTeam(w.creators, w.creator.auth, `${v}: team member with can_create_org_repo`);
    await expectTeam(w.readers, w.owner.auth, `${v}: org owner`);
    await expectTeam(w.readers, admin.auth, `${v}: site admin`);
    await expectTeam(w.owners, w.owner.auth, `${v}: Owners to an owner`);
    await expect404(w.readers.id, w.creator.auth, `${v}: member of another team`);
    await expect404(w.creators.id, w.member.auth, `${v}: member without can_create_org_repo`);
    await expect404(w.owners.id, w.member.auth, `${v}: Owners to a member`);
    await expect404(w.readers.id, w.outsider.auth, `${v}: outsider`);
  }
});

test('limited team: any member of the org; outsiders 404', async () => {
  for (const w of [pub, limited, priv]) {
    const v = w.org.visibility;
    for (const [label, who] of [['member', w.member], ['creator', w.creator], ['owner', w.owner], ['admin', admin]] as const) {
      await expectTeam(w.limitedTeam, who.auth, `${v}: ${label}`);
    }
    await expect404(w.limitedTeam.id, w.outsider.auth, `${v}: outsider`);
    await expect404(w.limitedTeam.id, restricted.auth, `${v}: restricted outsider`);
  }
});

test('public team: any signed-in caller who can see the org', async () => {
  for (const [label, who] of [['outsider', pub.outsider], ['restricted', restricted], ['member', pub.member], ['owner of another org', priv.owner]] as const) {
    await expectTeam(pub.publicTeam, who.auth, `public org: ${label}`);
  }
  await expectTeam(limited.publicTeam, limited.outsider.auth, 'limited org: outsider');
  await expect404(limited.publicTeam.id, restricted.auth, 'limited org: restricted outsider cannot see the org');
  await expect404(priv.publicTeam.id, priv.outsider.auth, 'private org: outsider cannot see the org');
  await expectTeam(priv.publicTeam, priv.member.auth, 'private org: member');
});

test('404: an unknown team id', async () => {
  for (const id of [999999, 0, -1]) await expect404(id, admin.auth, String(id));
});

test('401: anonymous callers, even on a public team; wrong credentials', async () => {
  const anon = await get(pub.publicTeam.id);
  assert.is(anon.response.status, 401);
  assertSpec('orgGetTeam', anon);
  assert.equal(anon.error, { message: 'token is required', url: `${app.config.rootUrl}api/swagger` });
  const wrong = await get(pub.publicTeam.id, `token ${'d'.repeat(40)}`);
  assert.is(wrong.response.status, 401);
  assertSpec('orgGetTeam', wrong);
});

test('403: a token without read:organization (read:issue on a GET)', async () => {
  const token = await app.token(pub.owner, ['read:issue']);
  const res = await get(pub.readers.id, token);
  assert.is(res.response.status, 403);
  assertSpec('orgGetTeam', res);
  assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [read:organization]', url: `${app.config.rootUrl}api/swagger` });
});

test('422: an id that is not an integer', async () => {
  for (const id of ['abc', '1.5', '1e3x', '1e0', '0x1', '%201']) {
    const res = await fetch(`${app.url}/api/v1/teams/${id}`, { headers: { Authorization: admin.auth } });
    assert.is(res.status, 422, id);
    const body = await res.json();
    assertSpec('orgGetTeam', { response: res, error: body });
    assert.match(body.message, /\[id\]/);
  }
});

test.run();
