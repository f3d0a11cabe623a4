import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, allUnits, createOrg, fresh, messageOf, unitsAt, type Actor } from '../../helpers/orgs.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type CreateOrgOption = components['schemas']['CreateOrgOption'];

let app: TestApp;
/** A site that lets only administrators create organizations, and takes small bodies only. */
let closed: TestApp;
let admin: Actor;
let closedAdmin: Actor;
test.before(async () => {
  [app, closed] = await Promise.all([startApp(), startApp({ ALLOW_CREATE_ORGANIZATION: 'false', MAX_BODY_SIZE: '2048' })]);
  [admin, closedAdmin] = await Promise.all([adminActor(app), adminActor(closed)]);
});
test.after(async () => {
  await Promise.all([app.close(), closed.close()]);
});

const swagger = (a: TestApp = app) => `${a.config.rootUrl}api/swagger`;

async function rawPost(body: string, authorization?: string, target: TestApp = app) {
  const response = await fetch(`${target.url}/api/v1/orgs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
    body,
  });
  const text = await response.text();
  return { response, body: text ? JSON.parse(text) : undefined };
}

async function expect422(over: Partial<CreateOrgOption> & { username: string }, pattern: RegExp, by?: string) {
  const result = await app.client(by ?? admin.auth).POST('/orgs', { body: over });
  assert.is(result.response.status, 422, `${JSON.stringify(over)} → ${result.response.status}`);
  assertSpec('orgCreate', result);
  assert.match(messageOf(result.error), pattern, JSON.stringify(over));
  assert.is((result.error as { url: string }).url, swagger());
}

/** No organization of that name exists (GET as the site admin, who sees every org). */
async function assertNoOrg(name: string, target: TestApp = app) {
  const res = await target.client((target === app ? admin : closedAdmin).auth).GET('/orgs/{org}', { params: { path: { org: name } } });
  assert.is(res.response.status, 404, `${name} must not exist`);
}

test('201: a signed-in user creates an organization and gets it back', async () => {
  const user = await actor(app);
  const username = fresh('Acme');
  const result = await app.client(user.basic).POST('/orgs', { body: { username } });
  assert.is(result.response.status, 201);
  assertSpec('orgCreate', result);
  const org = result.data!;
  assert.ok(Number.isInteger(org.id) && org.id > 0);
  assert.equal(org, {
    id: org.id,
    name: username,
    username,
    full_name: '',
    description: '',
    email: '',
    location: '',
    website: '',
    avatar_url: `${app.config.rootUrl}avatars/${org.id}`,
    visibility: 'public',
    repo_admin_change_team_access: false,
  });
});

test('201: every option is kept; read-after-write through GET /orgs/{org}', async () => {
  const user = await actor(app);
  const body: CreateOrgOption = {
    username: fresh('full'),
    full_name: 'Full Name Inc.',
    description: 'We make things',
    email: 'contact@full.example',
    location: 'Berlin',
    website: 'https://full.example',
    visibility: 'limited',
    repo_admin_change_team_access: true,
  };
  const created = await app.client(user.auth).POST('/orgs', { body });
  assert.is(created.response.status, 201);
  assertSpec('orgCreate', created);
  assert.equal({ ...created.data, id: 0, avatar_url: '' }, {
    id: 0,
    name: body.username,
    username: body.username,
    full_name: body.full_name,
    description: body.description,
    email: body.email,
    location: body.location,
    website: body.website,
    avatar_url: '',
    visibility: 'limited',
    repo_admin_change_team_access: true,
  });
  const read = await app.client(user.auth).GET('/orgs/{org}', { params: { path: { org: body.username } } });
  assert.is(read.response.status, 200);
  assert.equal(read.data, created.data);
});

test('201: visibility defaults to public; "" means public; limited and private are kept', async () => {
  const user = await actor(app);
  for (const [given, expected] of [[undefined, 'public'], ['', 'public'], ['public', 'public'], ['limited', 'limited'], ['private', 'private']] as const) {
    const body: CreateOrgOption = { username: fresh('vis'), ...(given === undefined ? {} : { visibility: given }) };
    const result = await app.client(user.auth).POST('/orgs', { body });
    assert.is(result.response.status, 201, String(given));
    assertSpec('orgCreate', result);
    assert.is(result.data!.visibility, expected, String(given));
    const read = await app.client(user.auth).GET('/orgs/{org}', { params: { path: { org: body.username } } });
    assert.is(read.data!.visibility, expected, `${given}: stored`);
  }
});

test('201: the creator becomes the one member of the organization', async () => {
  const user = await actor(app);
  const org = await createOrg(app, user);
  const members = await app.client(user.auth).GET('/orgs/{org}/members', { params: { path: { org: org.name } } });
  assert.is(members.response.status, 200);
  assert.equal(members.data!.map((u) => u.login), [user.username]);
  assert.is(members.data![0]!.id, user.id);
  assert.is(members.response.headers.get('x-total-count'), '1');
  // Membership is not public by default (Gitea's DEFAULT_ORG_MEMBER_VISIBLE=false).
  const outsider = await actor(app);
  const seen = await app.client(outsider.auth).GET('/orgs/{org}/members', { params: { path: { org: org.name } } });
  assert.equal(seen.data, []);
});

test('201: the organization starts with one team, Owners, holding the creator', async () => {
  const user = await actor(app);
  const org = await createOrg(app, user);
  const list = await app.client(user.auth).GET('/orgs/{org}/teams', { params: { path: { org: org.name } } });
  assert.is(list.response.status, 200);
  assert.is(list.data!.length, 1);
  assert.is(list.response.headers.get('x-total-count'), '1');
  const listed = list.data![0]!;
  const expected = {
    id: listed.id,
    name: 'Owners',
    description: '',
    organization: null,
    can_create_org_repo: true,
    includes_all_repositories: true,
    permission: 'owner',
    units: [...allUnits].sort(),
    units_map: unitsAt('owner'),
    visibility: 'private',
  };
  assert.equal({ ...listed, units: [...listed.units].sort() }, expected);

  const one = await app.client(user.auth).GET('/teams/{id}', { params: { path: { id: listed.id } } });
  assert.is(one.response.status, 200);
  assert.equal({ ...one.data!, units: [...one.data!.units].sort() }, { ...expected, organization: org });
  assert.is(one.data!.units_map['repo.ext_issues'], 'read');
  assert.is(one.data!.units_map['repo.ext_wiki'], 'read');
  assert.is(one.data!.units_map['repo.code'], 'owner');
  assert.ok(await app.services.teams.isMember(listed.id, user.id), 'the creator is in Owners');

  // Being in Owners makes the creator an owner: they may create teams and add people to them.
  const team = await app.client(user.auth).POST('/orgs/{org}/teams', { params: { path: { org: org.name } }, body: { name: 'devs', permission: 'admin' } });
  assert.is(team.response.status, 201);
  const other = await actor(app);
  const added = await app.client(user.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: listed.id, username: other.username } } });
  assert.is(added.response.status, 204);
});

test('201: the Owners team reaches every repository, present and future, as owner', async () => {
  const user = await actor(app);
  const org = await createOrg(app, user, { visibility: 'private' });
  const repo = await app.client(user.auth).POST('/orgs/{org}/repos', { params: { path: { org: org.name } }, body: { name: 'r1', private: true } });
  assert.is(repo.response.status, 201);
  const got = await app.client(user.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: org.name, repo: 'r1' } } });
  assert.is(got.response.status, 200);
  assert.equal(got.data!.permissions, { admin: true, push: true, pull: true });
  const teams = await app.client(user.auth).GET('/orgs/{org}/teams', { params: { path: { org: org.name } } });
  const repos = await app.client(user.auth).GET('/teams/{id}/repos', { params: { path: { id: teams.data![0]!.id } } });
  assert.equal(repos.data!.map((r) => r.name), ['r1']);
});

test('201: a site admin may create organizations, even where plain users may not', async () => {
  for (const target of [app, closed]) {
    const body = { username: fresh('adm') };
    const result = await target.client(target.admin.basic).POST('/orgs', { body });
    assert.is(result.response.status, 201);
    assertSpec('orgCreate', result);
    const members = await target.client((target === app ? admin : closedAdmin).auth).GET('/orgs/{org}/members', { params: { path: { org: body.username } } });
    assert.equal(members.data!.map((u) => u.login), [target.admin.username], 'the admin is the member');
  }
});

test('201: tokens with write:organization or all', async () => {
  const user = await actor(app);
  for (const scopes of [['write:organization'], ['all'], ['read:user', 'write:organization']]) {
    const token = await app.token(user, scopes);
    const body = { username: fresh('tok') };
    const result = await app.client(token).POST('/orgs', { body });
    assert.is(result.response.status, 201, scopes.join());
    assertSpec('orgCreate', result);
    assert.is(result.data!.name, body.username);
  }
});

test('201: names with dots, dashes and underscores inside, and 40 characters', async () => {
  const user = await actor(app);
  const long = `a${fresh('')}${'b'.repeat(40)}`.slice(0, 40);
  for (const username of [`a.b-c_d${fresh('')}`, `9lives${fresh('.')}`, long]) {
    const result = await app.client(user.auth).POST('/orgs', { body: { username } });
    assert.is(result.response.status, 201, username);
    assert.is(result.data!.name, username);
  }
});

test('401: anonymous callers and wrong credentials', async () => {
  const body = { username: fresh('anon') };
  const anon = await app.client().POST('/orgs', { body });
  assert.is(anon.response.status, 401);
  assertSpec('orgCreate', anon);
  assert.equal(anon.error, { message: 'token is required', url: swagger() });
  const user = await actor(app);
  for (const auth of [`Basic ${Buffer.from(`${user.username}:wrong-password`).toString('base64')}`, `token ${'0'.repeat(40)}`]) {
    const res = await app.client(auth).POST('/orgs', { body });
    assert.is(res.response.status, 401, auth);
    assertSpec('orgCreate', res);
  }
  await assertNoOrg(body.username);
});

test('403: plain users where ALLOW_CREATE_ORGANIZATION=false; nothing is created', async () => {
  const user = await actor(closed);
  const body = { username: fresh('no') };
  const result = await closed.client(user.auth).POST('/orgs', { body });
  assert.is(result.response.status, 403);
  assertSpec('orgCreate', result);
  assert.equal(result.error, { message: 'Create organization not allowed', url: swagger(closed) });
  await assertNoOrg(body.username, closed);
  const token = await closed.token(user, ['write:organization']);
  const withToken = await closed.client(token).POST('/orgs', { body });
  assert.is(withToken.response.status, 403);
  assert.is(messageOf(withToken.error), 'Create organization not allowed');
});

test('403: a token without write:organization (read:organization on a POST, or another category)', async () => {
  const user = await actor(app);
  for (const scopes of [['read:organization'], ['write:user'], ['write:repository', 'read:issue']]) {
    const token = await app.token(user, scopes);
    const body = { username: fresh('scope') };
    const result = await app.client(token).POST('/orgs', { body });
    assert.is(result.response.status, 403, scopes.join());
    assertSpec('orgCreate', result);
    assert.equal(result.error, { message: 'token does not have at least one of required scope(s): [write:organization]', url: swagger() });
    await assertNoOrg(body.username);
  }
});

test('404: Sudo to an unknown user (empty body)', async () => {
  const result = await app.client(admin.auth).POST('/orgs', { body: { username: fresh('sudo') }, headers: { Sudo: 'no-such-user' } });
  assert.is(result.response.status, 404);
  assertSpec('orgCreate', result);
  assert.is(await result.response.text(), '');
});

test('201 through Sudo: the org belongs to the user the admin acts as', async () => {
  const user = await actor(app);
  const body = { username: fresh('sudo') };
  const result = await app.client(admin.auth).POST('/orgs', { body, headers: { Sudo: user.username } });
  assert.is(result.response.status, 201);
  const members = await app.client(admin.auth).GET('/orgs/{org}/members', { params: { path: { org: body.username } } });
  assert.equal(members.data!.map((u) => u.login), [user.username]);
});

test('422: a taken name, case-insensitively — any user or organization', async () => {
  const user = await actor(app);
  const org = await createOrg(app, user, { username: fresh('Taken') });
  const other = await actor(app);
  for (const username of [org.name, org.name.toUpperCase(), org.name.toLowerCase(), user.username, user.username.toUpperCase(), other.username, 'ROOT', app.admin.username]) {
    await expect422({ username }, /already exists/, other.auth);
  }
  const members = await app.client(user.auth).GET('/orgs/{org}/members', { params: { path: { org: org.name } } });
  assert.equal(members.data!.map((u) => u.login), [user.username], 'the existing org is untouched');
});

test('422: reserved names and patterns, case-insensitively', async () => {
  const user = await actor(app);
  for (const username of ['api', 'API', 'ghost', 'Explore', 'user', 'org', 'repo', 'assets', 'login', 'gitea-actions', 'admin', 'new', 'v2', 'metrics']) {
    await expect422({ username }, /reserved/, user.auth);
  }
  for (const username of ['acme.keys', 'acme.gpg', 'Acme.RSS', 'acme.atom', 'acme.png']) {
    await expect422({ username }, /pattern is not allowed/, user.auth);
  }
});

test('422: names that break the pattern name the field', async () => {
  const user = await actor(app);
  for (const username of ['-abc', '.abc', '_abc', 'a..b', 'a-_b', 'a__b', 'abc-', 'abc.', 'abc_', 'a b', 'a/b', 'ä', 'a@b', '']) {
    await expect422({ username }, /\[username\]/, user.auth);
  }
  await expect422({ username: 'a'.repeat(41) }, /\[username\]/, user.auth);
});

test('422: other fields — visibility, website, lengths, types', async () => {
  const user = await actor(app);
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ visibility: 'secret' }, /\[visibility\]/],
    [{ website: 'ftp://example.com' }, /\[website\]/],
    [{ website: 'example.com' }, /\[website\]/],
    [{ full_name: 'x'.repeat(101) }, /\[full_name\]/],
    [{ description: 'x'.repeat(256) }, /\[description\]/],
    [{ email: 'x'.repeat(256) }, /\[email\]/],
    [{ location: 'x'.repeat(51) }, /\[location\]/],
    [{ repo_admin_change_team_access: 'yes' }, /\[repo_admin_change_team_access\]/],
    [{ username: 42 }, /\[username\]/],
  ];
  for (const [over, pattern] of cases) {
    const body = { username: fresh('bad'), ...over };
    const res = await rawPost(JSON.stringify(body), user.auth);
    assert.is(res.response.status, 422, JSON.stringify(over));
    assertSpecAnswer('orgCreate', 422, res.body);
    assert.match(res.body.message, pattern);
    if (typeof body.username === 'string') await assertNoOrg(body.username);
  }
});

test('422: a missing username, and bodies that are not objects', async () => {
  const user = await actor(app);
  const none = await rawPost(JSON.stringify({ full_name: 'x' }), user.auth);
  assert.is(none.response.status, 422);
  assertSpecAnswer('orgCreate', 422, none.body);
  assert.equal(none.body, { message: '[username]: Required', url: swagger() });
  for (const body of ['', 'null', '[]', '"acme"', '42']) {
    const res = await rawPost(body, user.auth);
    assert.is(res.response.status, 422, body);
    assertSpecAnswer('orgCreate', 422, res.body);
  }
});

test('400: a malformed JSON body; anonymous malformed JSON is 401', async () => {
  const user = await actor(app);
  for (const body of ['{"username": "x", ', "{'username':'x'}"]) {
    const res = await rawPost(body, user.auth);
    assert.is(res.response.status, 400, body);
    assertSpecAnswer('orgCreate', 400, res.body);
    assert.match(res.body.message, /invalid JSON body/);
  }
  assert.is((await rawPost('{"username":')).response.status, 401);
});

test('413: a body over the limit', async () => {
  const body = JSON.stringify({ username: fresh('big'), description: 'x'.repeat(4000) });
  const res = await rawPost(body, closedAdmin.auth, closed);
  assert.is(res.response.status, 413);
  assertSpecAnswer('orgCreate', 413, res.body);
  assert.equal(res.body, { message: 'request body is larger than 2048 bytes', url: swagger(closed) });
});

test.run();
