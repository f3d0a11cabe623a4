import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addTeamMember, adminActor, allUnits, createOrgRepo, createTeam, fresh, messageOf, orgWorld, unitsAt,
  type Actor, type CreateTeamOption, type OrgWorld, type Team,
} from '../../helpers/orgs.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let pub: OrgWorld;
let limited: OrgWorld;
let priv: OrgWorld;
let restricted: Actor;
let admin: Actor;
test.before(async () => {
  app = await startApp();
  [pub, limited, priv, restricted, admin] = await Promise.all([
    orgWorld(app, 'public'), orgWorld(app, 'limited'), orgWorld(app, 'private'), actor(app, { restricted: true }), adminActor(app),
  ]);
});
test.after(async () => {
  await app.close();
});

const swagger = () => `${app.config.rootUrl}api/swagger`;
const post = (org: string, auth: string | undefined, body: CreateTeamOption) =>
  app.client(auth).POST('/orgs/{org}/teams', { params: { path: { org } }, body });
const sortedUnits = (t: Team) => ({ ...t, units: [...t.units].sort() });

async function rawPost(org: string, body: string, auth: string) {
  const response = await fetch(`${app.url}/api/v1/orgs/${org}/teams`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: auth },
    body,
  });
  const text = await response.text();
  return { response, body: text ? JSON.parse(text) : undefined };
}

/** The org's team names as its owner sees them (every team). */
async function teamNames(w: OrgWorld): Promise<string[]> {
  const res = await app.client(w.owner.auth).GET('/orgs/{org}/teams', { params: { path: { org: w.org.name }, query: { limit: 50 } } });
  return res.data!.map((t) => t.name);
}

const listedBy = async (w: OrgWorld, auth: string) =>
  (await app.client(auth).GET('/orgs/{org}/teams', { params: { path: { org: w.org.name }, query: { limit: 50 } } })).data!.map((t) => t.name);

async function expect422(w: OrgWorld, body: CreateTeamOption, pattern: RegExp) {
  const before = await teamNames(w);
  const res = await post(w.org.name, w.owner.auth, body);
  assert.is(res.response.status, 422, `${JSON.stringify(body)} → ${res.response.status}`);
  assertSpec('orgCreateTeam', res);
  assert.match(messageOf(res.error), pattern, JSON.stringify(body));
  assert.is((res.error as { url: string }).url, swagger());
  assert.equal(await teamNames(w), before, 'nothing was created');
}

test('201: an org owner creates a team; the answer is the complete Team with its organization', async () => {
  const name = fresh('Team');
  const res = await post(pub.org.name, pub.owner.auth, { name, units_map: { 'repo.code': 'write', 'repo.issues': 'read' } });
  assert.is(res.response.status, 201);
  assertSpec('orgCreateTeam', res);
  const team = res.data!;
  assert.ok(Number.isInteger(team.id) && team.id > 0);
  assert.equal(sortedUnits(team), {
    id: team.id,
    name,
    description: '',
    organization: pub.org,
    can_create_org_repo: false,
    includes_all_repositories: false,
    permission: 'none',
    units: ['repo.code', 'repo.issues'],
    units_map: { 'repo.code': 'write', 'repo.issues': 'read' },
    visibility: 'private',
  });
  const read = await app.client(pub.owner.auth).GET('/teams/{id}', { params: { path: { id: team.id } } });
  assert.is(read.response.status, 200);
  assert.equal(sortedUnits(read.data!), sortedUnits(team), 'read-after-write');
  assert.not.ok(await app.services.teams.isMember(team.id, pub.owner.id), 'the creator is not added to the team');
});

test('201: every option is kept', async () => {
  const body: CreateTeamOption = {
    name: fresh('all.opts-'),
    description: 'the whole lot',
    can_create_org_repo: true,
    includes_all_repositories: true,
    permission: 'write',
    units: ['repo.code', 'repo.pulls'],
    visibility: 'limited',
  };
  const res = await post(pub.org.name, pub.owner.basic, body);
  assert.is(res.response.status, 201);
  assertSpec('orgCreateTeam', res);
  assert.equal(sortedUnits(res.data!), {
    id: res.data!.id,
    name: body.name,
    description: 'the whole lot',
    organization: pub.org,
    can_create_org_repo: true,
    includes_all_repositories: true,
    permission: 'none',
    units: ['repo.code', 'repo.pulls'],
    units_map: { 'repo.code': 'write', 'repo.pulls': 'write' },
    visibility: 'limited',
  });
});

test('201: a site admin who is not a member may create teams, and does not become a member', async () => {
  for (const w of [pub, priv]) {
    const res = await post(w.org.name, admin.auth, { name: fresh('adm'), permission: 'read', units: ['repo.code'] });
    assert.is(res.response.status, 201, w.org.visibility);
    assertSpec('orgCreateTeam', res);
    assert.equal(res.data!.organization, w.org);
    assert.not.ok(await app.services.teams.isMember(res.data!.id, app.admin.id));
    const members = await app.client(admin.auth).GET('/orgs/{org}/members', { params: { path: { org: w.org.name } } });
    assert.not.ok(members.data!.some((u) => u.id === app.admin.id), 'the admin is not an org member');
  }
});

test('201: tokens with write:organization or all', async () => {
  for (const scopes of [['write:organization'], ['all']]) {
    const token = await app.token(pub.owner, scopes);
    const res = await post(pub.org.name, token, { name: fresh('tok'), permission: 'admin' });
    assert.is(res.response.status, 201, scopes.join());
  }
});

test('201: admin teams get admin on every unit but read on ext_issues/ext_wiki; units and units_map are ignored', async () => {
  for (const extra of [{}, { units: ['repo.code'] as CreateTeamOption['units'] }, { units_map: { 'repo.code': 'read', 'repo.wiki': 'none' } as CreateTeamOption['units_map'] }]) {
    const res = await post(pub.org.name, pub.owner.auth, { name: fresh('admins'), permission: 'admin', ...extra });
    assert.is(res.response.status, 201, JSON.stringify(extra));
    assertSpec('orgCreateTeam', res);
    assert.is(res.data!.permission, 'admin');
    assert.equal(res.data!.units_map, unitsAt('admin'), JSON.stringify(extra));
    assert.equal([...res.data!.units].sort(), [...allUnits].sort());
  }
});

test('201: units_map gives each unit its own level; none leaves a unit out; it wins over units and permission', async () => {
  const res = await post(pub.org.name, pub.owner.auth, {
    name: fresh('map'),
    permission: 'read',
    units: ['repo.releases', 'repo.wiki'],
    units_map: { 'repo.code': 'write', 'repo.issues': 'read', 'repo.pulls': 'admin', 'repo.wiki': 'none', 'repo.ext_wiki': 'read' },
  });
  assert.is(res.response.status, 201);
  assertSpec('orgCreateTeam', res);
  assert.equal(res.data!.units_map, { 'repo.code': 'write', 'repo.issues': 'read', 'repo.pulls': 'admin', 'repo.ext_wiki': 'read' });
  assert.equal([...res.data!.units].sort(), ['repo.code', 'repo.ext_wiki', 'repo.issues', 'repo.pulls']);
  assert.is(res.data!.permission, 'none', 'teams made of per-unit levels report none');
});

test('201: `units` gives each listed unit the team permission (read by default); the external ones get read', async () => {
  const write = await post(pub.org.name, pub.owner.auth, { name: fresh('list'), permission: 'write', units: ['repo.code', 'repo.issues', 'repo.ext_issues', 'repo.ext_wiki'] });
  assert.is(write.response.status, 201);
  assertSpec('orgCreateTeam', write);
  assert.equal(write.data!.units_map, { 'repo.code': 'write', 'repo.issues': 'write', 'repo.ext_issues': 'read', 'repo.ext_wiki': 'read' });
  assert.equal([...write.data!.units].sort(), ['repo.code', 'repo.ext_issues', 'repo.ext_wiki', 'repo.issues']);
  assert.is(write.data!.permission, 'none');

  const dflt = await post(pub.org.name, pub.owner.auth, { name: fresh('list'), units: ['repo.wiki'] });
  assert.is(dflt.response.status, 201);
  assert.equal(dflt.data!.units_map, { 'repo.wiki': 'read' });

  const empty = await post(pub.org.name, pub.owner.auth, { name: fresh('list'), permission: 'write', units: ['repo.code'], units_map: {} });
  assert.is(empty.response.status, 201, 'an empty units_map falls back to units');
  assert.equal(empty.data!.units_map, { 'repo.code': 'write' });
});

test('201: units_map levels decide repository permissions of the team members', async () => {
  const w = await orgWorld(app, 'private', pub);
  await createOrgRepo(app, w.owner, w.org.name, { name: 'code', private: true });
  const cases: Array<[CreateTeamOption, { admin: boolean; push: boolean; pull: boolean }]> = [
    [{ name: 'r', includes_all_repositories: true, units_map: { 'repo.code': 'read' } }, { admin: false, push: false, pull: true }],
    [{ name: 'w', includes_all_repositories: true, units_map: { 'repo.code': 'write', 'repo.issues': 'write' } }, { admin: false, push: true, pull: true }],
    [{ name: 'i', includes_all_repositories: true, units_map: { 'repo.issues': 'write' } }, { admin: false, push: false, pull: false }],
    [{ name: 'a', includes_all_repositories: true, permission: 'admin' }, { admin: true, push: true, pull: true }],
  ];
  for (const [body, permissions] of cases) {
    const team = await createTeam(app, w.owner, w.org.name, body);
    const who = await actor(app);
    await addTeamMember(app, w.owner, team.id, who.username);
    const got = await app.client(who.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: 'code' } } });
    assert.is(got.response.status, 200, body.name);
    assert.equal(got.data!.permissions, permissions, body.name);
  }
});

test('201: includes_all_repositories gives the team every existing repository (and later ones); without it, none', async () => {
  const w = await orgWorld(app, 'public', pub);
  const before = await createOrgRepo(app, w.owner, w.org.name, { name: 'before', private: true });
  const all = await createTeam(app, w.owner, w.org.name, { name: 'all', includes_all_repositories: true, units_map: { 'repo.code': 'write' } });
  const some = await createTeam(app, w.owner, w.org.name, { name: 'some', units_map: { 'repo.code': 'write' } });
  assert.is(all.includes_all_repositories, true);
  assert.is(some.includes_all_repositories, false);
  const [inAll, inSome] = await Promise.all([actor(app), actor(app)]);
  await addTeamMember(app, w.owner, all.id, inAll.username);
  await addTeamMember(app, w.owner, some.id, inSome.username);
  const after = await createOrgRepo(app, w.owner, w.org.name, { name: 'after', private: true });

  for (const repo of [before, after]) {
    const got = await app.client(inAll.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: repo.name } } });
    assert.is(got.response.status, 200, repo.name);
    assert.equal(got.data!.permissions, { admin: false, push: true, pull: true }, repo.name);
    const hidden = await app.client(inSome.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: repo.name } } });
    assert.is(hidden.response.status, 404, `${repo.name}: a team without the repository gives nothing`);
    const outsider = await app.client(w.outsider.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: repo.name } } });
    assert.is(outsider.response.status, 404);
  }
  const listed = await app.client(inAll.auth).GET('/teams/{id}/repos', { params: { path: { id: all.id } } });
  assert.equal(listed.data!.map((r) => r.name), ['after', 'before']);
  const none = await app.client(inSome.auth).GET('/teams/{id}/repos', { params: { path: { id: some.id } } });
  assert.equal(none.data, []);
});

test('201: can_create_org_repo lets the team members create repositories; others in the org may not', async () => {
  const w = await orgWorld(app, 'public', pub);
  const yes = await createTeam(app, w.owner, w.org.name, { name: 'yes', can_create_org_repo: true, units_map: { 'repo.code': 'read' } });
  const no = await createTeam(app, w.owner, w.org.name, { name: 'no', units_map: { 'repo.code': 'write' } });
  assert.is(yes.can_create_org_repo, true);
  assert.is(no.can_create_org_repo, false);
  const [a, b] = await Promise.all([actor(app), actor(app)]);
  await addTeamMember(app, w.owner, yes.id, a.username);
  await addTeamMember(app, w.owner, no.id, b.username);
  const ok = await app.client(a.auth).POST('/orgs/{org}/repos', { params: { path: { org: w.org.name } }, body: { name: 'mine' } });
  assert.is(ok.response.status, 201);
  const refused = await app.client(b.auth).POST('/orgs/{org}/repos', { params: { path: { org: w.org.name } }, body: { name: 'theirs' } });
  assert.is(refused.response.status, 403);
});

test('visibility defaults to private and governs who may list and see the team', async () => {
  const w = await orgWorld(app, 'public', pub);
  const dflt = await createTeam(app, w.owner, w.org.name, { name: 'hidden' });
  assert.is(dflt.visibility, 'private');
  const lim = await createTeam(app, w.owner, w.org.name, { name: 'insiders', visibility: 'limited' });
  const open = await createTeam(app, w.owner, w.org.name, { name: 'open', visibility: 'public' });
  assert.is(lim.visibility, 'limited');
  assert.is(open.visibility, 'public');
  const inHidden = await actor(app);
  await addTeamMember(app, w.owner, dflt.id, inHidden.username);

  const mine = (names: string[]) => names.filter((n) => ['hidden', 'insiders', 'open'].includes(n));
  assert.equal(mine(await listedBy(w, w.owner.auth)), ['hidden', 'insiders', 'open'], 'org owner');
  assert.equal(mine(await listedBy(w, admin.auth)), ['hidden', 'insiders', 'open'], 'site admin');
  assert.equal(mine(await listedBy(w, inHidden.auth)), ['hidden', 'insiders', 'open'], 'member of the private team');
  assert.equal(mine(await listedBy(w, w.member.auth)), ['insiders', 'open'], 'other org member');
  assert.equal(mine(await listedBy(w, w.creator.auth)), ['insiders', 'open'], 'org member with can_create_org_repo');
  assert.equal(mine(await listedBy(w, w.outsider.auth)), ['open'], 'signed-in outsider');

  const status = async (id: number, auth: string) => (await app.client(auth).GET('/teams/{id}', { params: { path: { id } } })).response.status;
  assert.is(await status(dflt.id, w.member.auth), 404);
  assert.is(await status(dflt.id, inHidden.auth), 200);
  assert.is(await status(lim.id, w.member.auth), 200);
  assert.is(await status(lim.id, w.outsider.auth), 404);
  assert.is(await status(open.id, w.outsider.auth), 200);
});

test('401: anonymous callers', async () => {
  const res = await app.client().POST('/orgs/{org}/teams', { params: { path: { org: pub.org.name } }, body: { name: 'anon', permission: 'admin' } });
  assert.is(res.response.status, 401);
  assertSpec('orgCreateTeam', res);
  assert.equal(res.error, { message: 'token is required', url: swagger() });
});

test('403: a signed-in non-member of a visible org — "Must be an organization member"', async () => {
  for (const [w, who] of [[pub, pub.outsider], [limited, limited.outsider], [pub, restricted], [pub, limited.owner]] as const) {
    const before = await teamNames(w);
    const res = await post(w.org.name, who.auth, { name: fresh('x'), permission: 'admin' });
    assert.is(res.response.status, 403, `${w.org.visibility} ${who.username}`);
    assertSpec('orgCreateTeam', res);
    assert.equal(res.error, { message: 'Must be an organization member', url: swagger() });
    assert.equal(await teamNames(w), before);
  }
});

test('403: members who are not owners, with or without can_create_org_repo — "Must be an organization owner"', async () => {
  for (const w of [pub, limited, priv]) {
    for (const who of [w.member, w.creator]) {
      const before = await teamNames(w);
      const res = await post(w.org.name, who.auth, { name: fresh('x'), permission: 'admin' });
      assert.is(res.response.status, 403, `${w.org.visibility} ${who.username}`);
      assertSpec('orgCreateTeam', res);
      assert.equal(res.error, { message: 'Must be an organization owner', url: swagger() });
      assert.equal(await teamNames(w), before);
    }
  }
  // Membership in an admin team is not ownership.
  const teamAdmin = await actor(app);
  const admins = await createTeam(app, pub.owner, pub.org.name, { name: fresh('admins'), permission: 'admin', includes_all_repositories: true });
  await addTeamMember(app, pub.owner, admins.id, teamAdmin.username);
  const res = await post(pub.org.name, teamAdmin.auth, { name: fresh('x'), permission: 'read', units: ['repo.code'] });
  assert.is(res.response.status, 403);
  assert.is(messageOf(res.error), 'Must be an organization owner');
});

test('403: a token without write:organization (read:organization on a POST, or another category)', async () => {
  for (const scopes of [['read:organization'], ['write:repository'], ['read:issue', 'write:user']]) {
    const token = await app.token(pub.owner, scopes);
    const res = await post(pub.org.name, token, { name: fresh('scope'), permission: 'admin' });
    assert.is(res.response.status, 403, scopes.join());
    assertSpec('orgCreateTeam', res);
    assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [write:organization]', url: swagger() });
  }
});

test('404: an org the caller may not see, an unknown org, a user name (empty body)', async () => {
  const cases: Array<[string, string, string]> = [
    [priv.org.name, priv.outsider.auth, 'outsider on private'],
    [priv.org.name, pub.owner.auth, 'owner of another org on private'],
    [priv.org.name, restricted.auth, 'restricted on private'],
    [limited.org.name, restricted.auth, 'restricted on limited'],
    ['no-such-org', pub.owner.auth, 'unknown'],
    ['no-such-org', admin.auth, 'unknown, admin'],
    [pub.owner.username, admin.auth, 'a user name'],
  ];
  for (const [org, auth, label] of cases) {
    const res = await post(org, auth, { name: fresh('x'), permission: 'admin' });
    assert.is(res.response.status, 404, label);
    assertSpec('orgCreateTeam', res);
    assert.is(await res.response.text(), '', label);
  }
  assert.not.ok((await teamNames(priv)).some((n) => n.startsWith('x')));
});

test('422: a duplicate team name, case-insensitively (Owners included)', async () => {
  const name = fresh('Dup');
  assert.is((await post(pub.org.name, pub.owner.auth, { name, permission: 'admin' })).response.status, 201);
  for (const again of [name, name.toUpperCase(), name.toLowerCase(), 'Owners', 'OWNERS', 'owners', 'READERS']) {
    await expect422(pub, { name: again, permission: 'admin' }, /team already exists/);
  }
  const other = await post(limited.org.name, limited.owner.auth, { name, permission: 'admin' });
  assert.is(other.response.status, 201, 'the same name in another org is fine');
});

test('422: the reserved name `new`', async () => {
  for (const name of ['new', 'NEW', 'New']) await expect422(pub, { name, permission: 'admin' }, /reserved/);
});

test('422: a team below admin with neither units nor units_map (Gitea answers 500)', async () => {
  const bodies: CreateTeamOption[] = [
    { name: fresh('e') },
    { name: fresh('e'), permission: 'read' },
    { name: fresh('e'), permission: 'write', units: [] },
    { name: fresh('e'), permission: 'write', units: null },
    { name: fresh('e'), permission: 'write', units_map: {} },
    { name: fresh('e'), permission: 'write', units_map: null },
    { name: fresh('e'), units_map: { 'repo.code': 'none', 'repo.wiki': 'none' } },
    { name: fresh('e'), units_map: { 'repo.nothing': 'write' } as CreateTeamOption['units_map'] },
  ];
  for (const body of bodies) await expect422(pub, body, /units permission should not be empty/);
});

test('422: a name that breaks the pattern or is too long names the field', async () => {
  for (const name of ['a b', 'a/b', 'ä', 'team!', '']) await expect422(pub, { name, permission: 'admin' }, /\[name\]/);
  await expect422(pub, { name: 'a'.repeat(256), permission: 'admin' }, /\[name\]/);
  await expect422(pub, { name: fresh('d'), permission: 'admin', description: 'd'.repeat(256) }, /\[description\]/);
  const long = 'n'.repeat(255);
  const ok = await post(pub.org.name, pub.owner.auth, { name: long, permission: 'admin', description: 'd'.repeat(255) });
  assert.is(ok.response.status, 201, '255 characters are allowed');
});

test('422: values outside the enums and wrong types name the field', async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ permission: 'owner' }, /\[permission\]/],
    [{ permission: 'none', units: ['repo.code'] }, /\[permission\]/],
    [{ permission: 'write', units: ['repo.unknown'] }, /\[units\.0\]/],
    [{ units_map: { 'repo.code': 'owner' } }, /\[units_map\.repo\.code\]/],
    [{ units_map: { 'repo.code': 'superuser' } }, /\[units_map\.repo\.code\]/],
    [{ permission: 'admin', visibility: 'secret' }, /\[visibility\]/],
    [{ permission: 'admin', includes_all_repositories: 'yes' }, /\[includes_all_repositories\]/],
    [{ permission: 'admin', can_create_org_repo: 1 }, /\[can_create_org_repo\]/],
    [{ permission: 'admin', name: 7 }, /\[name\]/],
  ];
  const before = await teamNames(pub);
  for (const [over, pattern] of cases) {
    const res = await rawPost(pub.org.name, JSON.stringify({ name: fresh('t'), ...over }), pub.owner.auth);
    assert.is(res.response.status, 422, JSON.stringify(over));
    assertSpecAnswer('orgCreateTeam', 422, res.body);
    assert.match(res.body.message, pattern, JSON.stringify(over));
  }
  const missing = await rawPost(pub.org.name, JSON.stringify({ permission: 'admin' }), pub.owner.auth);
  assert.is(missing.response.status, 422);
  assert.equal(missing.body, { message: '[name]: Required', url: swagger() });
  for (const body of ['', 'null', '[]', '"team"']) {
    const res = await rawPost(pub.org.name, body, pub.owner.auth);
    assert.is(res.response.status, 422, body);
    assertSpecAnswer('orgCreateTeam', 422, res.body);
  }
  assert.equal(await teamNames(pub), before, 'nothing was created');
});

test('400: a malformed JSON body', async () => {
  const res = await rawPost(pub.org.name, '{"name": "x",', pub.owner.auth);
  assert.is(res.response.status, 400);
  assertSpecAnswer('orgCreateTeam', 400, res.body);
  assert.match(res.body.message, /invalid JSON body/);
});

test.run();
