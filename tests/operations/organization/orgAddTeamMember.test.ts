import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, createTeam, messageOf, orgWorld, type Actor, type OrgWorld, type Team } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

interface World extends OrgWorld {
  limitedTeam: Team;
  publicTeam: Team;
}

let app: TestApp;
let pub: World;
let priv: World;
let admin: Actor;

async function world(visibility: 'public' | 'private'): Promise<World> {
  const w = await orgWorld(app, visibility);
  const limitedTeam = await createTeam(app, w.owner, w.org.name, { name: 'insiders', visibility: 'limited', units_map: { 'repo.code': 'read' } });
  const publicTeam = await createTeam(app, w.owner, w.org.name, { name: 'everyone', visibility: 'public', units_map: { 'repo.code': 'read' } });
  return { ...w, limitedTeam, publicTeam };
}

test.before(async () => {
  app = await startApp();
  [pub, priv, admin] = await Promise.all([world('public'), world('private'), adminActor(app)]);
});
test.after(async () => {
  await app.close();
});

const swagger = () => `${app.config.rootUrl}api/swagger`;
const put = (id: number, username: string, auth?: string) =>
  app.client(auth).PUT('/teams/{id}/members/{username}', { params: { path: { id, username } } });

async function memberLogins(w: OrgWorld): Promise<string[]> {
  const res = await app.client(w.owner.auth).GET('/orgs/{org}/members', { params: { path: { org: w.org.name }, query: { limit: 50 } } });
  return res.data!.map((u) => u.login);
}

async function expect204(id: number, username: string, auth: string, label: string) {
  const res = await put(id, username, auth);
  assert.is(res.response.status, 204, `${label}: ${JSON.stringify(res.error)}`);
  assertSpec('orgAddTeamMember', res);
  assert.is(await res.response.text(), '', `${label}: empty body`);
}

async function expectRefused(status: 403 | 404, id: number, who: Actor, auth: string, label: string) {
  const res = await put(id, who.username, auth);
  assert.is(res.response.status, status, label);
  assertSpec('orgAddTeamMember', res);
  if (status === 404) assert.is(await res.response.text(), '', label);
  assert.not.ok(await app.services.teams.isMember(id, who.id), `${label}: not added`);
}

test('204: an org owner adds a user, who joins the team and the organization', async () => {
  const w = await orgWorld(app, 'private', pub);
  const newcomer = await actor(app);
  assert.is((await app.client(newcomer.auth).GET('/teams/{id}', { params: { path: { id: w.readers.id } } })).response.status, 404, 'invisible before');
  assert.is((await app.client(newcomer.auth).GET('/orgs/{org}', { params: { path: { org: w.org.name } } })).response.status, 404);

  await expect204(w.readers.id, newcomer.username, w.owner.auth, 'owner');
  assert.ok(await app.services.teams.isMember(w.readers.id, newcomer.id));
  assert.ok((await memberLogins(w)).includes(newcomer.username), 'now an org member');

  const team = await app.client(newcomer.auth).GET('/teams/{id}', { params: { path: { id: w.readers.id } } });
  assert.is(team.response.status, 200, 'the private team is visible to its new member');
  const org = await app.client(newcomer.auth).GET('/orgs/{org}', { params: { path: { org: w.org.name } } });
  assert.is(org.response.status, 200, 'the private org is visible to its new member');
  const teams = await app.client(newcomer.auth).GET('/orgs/{org}/teams', { params: { path: { org: w.org.name } } });
  assert.equal(teams.data!.map((t) => t.name), ['readers']);
});

test('204: adding a current member changes nothing', async () => {
  const before = await memberLogins(pub);
  await expect204(pub.readers.id, pub.member.username, pub.owner.auth, 'again');
  await expect204(pub.readers.id, pub.member.username.toUpperCase(), pub.owner.auth, 'again, upper-case name');
  assert.equal(await memberLogins(pub), before);
  assert.ok(await app.services.teams.isMember(pub.readers.id, pub.member.id));
});

test('204: a member may be in several teams; the org membership stays one', async () => {
  const w = await orgWorld(app, 'public', pub);
  await expect204(w.creators.id, w.member.username, w.owner.auth, 'second team');
  assert.ok(await app.services.teams.isMember(w.creators.id, w.member.id));
  assert.ok(await app.services.teams.isMember(w.readers.id, w.member.id));
  const logins = await memberLogins(w);
  assert.is(logins.filter((l) => l === w.member.username).length, 1);
});

test('204: a site admin who is not a member; Basic sign-in; a write:organization token', async () => {
  const [a, b, c] = await Promise.all([actor(app), actor(app), actor(app)]);
  await expect204(priv.readers.id, a.username, admin.auth, 'site admin');
  await expect204(priv.readers.id, b.username, priv.owner.basic, 'Basic');
  await expect204(priv.readers.id, c.username, await app.token(priv.owner, ['write:organization']), 'write:organization');
  for (const u of [a, b, c]) assert.ok(await app.services.teams.isMember(priv.readers.id, u.id));
  assert.not.ok((await memberLogins(priv)).includes(app.admin.username), 'the admin did not join');
});

test('204: joining Owners makes one an owner of the organization', async () => {
  const w = await orgWorld(app, 'public', pub);
  const deputy = await actor(app);
  await expect204(w.owners.id, deputy.username, w.owner.auth, 'to Owners');
  const team = await app.client(deputy.auth).POST('/orgs/{org}/teams', { params: { path: { org: w.org.name } }, body: { name: 'by-deputy', permission: 'admin' } });
  assert.is(team.response.status, 201);
  await expect204(w.readers.id, w.outsider.username, deputy.auth, 'the new owner adds people');
});

test('204: restricted users may be added; an admin may add a private user', async () => {
  const restricted = await actor(app, { restricted: true });
  await expect204(pub.limitedTeam.id, restricted.username, pub.owner.auth, 'restricted');
  const hidden = await actor(app, { visibility: 'private' });
  await expect204(pub.limitedTeam.id, hidden.username, admin.auth, 'private user by admin');
});

test('403: callers who see the team but are not org owners — "Must be an organization owner"', async () => {
  const target = await actor(app);
  const cases: Array<[Team, Actor, string]> = [
    [pub.readers, pub.member, 'member, own private team'],
    [pub.creators, pub.creator, 'member with can_create_org_repo, own team'],
    [pub.limitedTeam, pub.member, 'member, limited team'],
    [pub.publicTeam, pub.creator, 'member, public team'],
    [pub.publicTeam, pub.outsider, 'outsider, public team'],
    [priv.limitedTeam, priv.member, 'member of a private org'],
  ];
  for (const [team, who, label] of cases) {
    const res = await put(team.id, target.username, who.auth);
    assert.is(res.response.status, 403, label);
    assertSpec('orgAddTeamMember', res);
    assert.equal(res.error, { message: 'Must be an organization owner', url: swagger() }, label);
    assert.not.ok(await app.services.teams.isMember(team.id, target.id), label);
  }
  assert.not.ok((await memberLogins(pub)).includes(target.username));
  // Even adding oneself.
  const self = await put(pub.publicTeam.id, pub.outsider.username, pub.outsider.auth);
  assert.is(self.response.status, 403);
});

test('403: a token without write:organization (read:organization on a PUT)', async () => {
  const target = await actor(app);
  for (const scopes of [['read:organization'], ['write:repository'], ['write:user']]) {
    const token = await app.token(pub.owner, scopes);
    const res = await put(pub.readers.id, target.username, token);
    assert.is(res.response.status, 403, scopes.join());
    assertSpec('orgAddTeamMember', res);
    assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [write:organization]', url: swagger() });
  }
  assert.not.ok(await app.services.teams.isMember(pub.readers.id, target.id));
});

test('404: a team the caller may not see', async () => {
  const target = await actor(app);
  await expectRefused(404, pub.creators.id, target, pub.member.auth, 'member, another private team');
  await expectRefused(404, pub.owners.id, target, pub.creator.auth, 'member, Owners');
  await expectRefused(404, pub.readers.id, target, pub.outsider.auth, 'outsider, private team');
  await expectRefused(404, pub.limitedTeam.id, target, pub.outsider.auth, 'outsider, limited team');
  await expectRefused(404, priv.publicTeam.id, target, priv.outsider.auth, 'outsider, public team of a private org');
  await expectRefused(404, priv.publicTeam.id, target, pub.owner.auth, 'owner of another org');
});

test('404: an unknown team or user, a user the owner may not see', async () => {
  const target = await actor(app);
  await expectRefused(404, 999999, target, admin.auth, 'unknown team');
  const res = await put(pub.readers.id, 'no-such-user', pub.owner.auth);
  assert.is(res.response.status, 404, 'unknown user');
  assertSpec('orgAddTeamMember', res);
  const hidden = await actor(app, { visibility: 'private' });
  await expectRefused(404, pub.readers.id, hidden, pub.owner.auth, 'a private user, to a plain owner');
});

test('401: anonymous callers and wrong credentials', async () => {
  const target = await actor(app);
  for (const auth of [undefined, `token ${'e'.repeat(40)}`]) {
    const res = await put(pub.publicTeam.id, target.username, auth);
    assert.is(res.response.status, 401, String(auth));
    assertSpec('orgAddTeamMember', res);
  }
  const anon = await put(pub.publicTeam.id, target.username);
  assert.is(messageOf(anon.error), 'token is required');
  assert.not.ok(await app.services.teams.isMember(pub.publicTeam.id, target.id));
});

test('422: the user is an organization', async () => {
  const other = await createOrg(app, pub.owner);
  for (const name of [pub.org.name, other.name]) {
    const res = await put(pub.readers.id, name, pub.owner.auth);
    assert.is(res.response.status, 422, name);
    assertSpec('orgAddTeamMember', res);
    assert.equal(res.error, { message: 'an organization cannot be a team member', url: swagger() });
  }
});

test('422: an id that is not an integer', async () => {
  const res = await fetch(`${app.url}/api/v1/teams/abc/members/${pub.member.username}`, { method: 'PUT', headers: { Authorization: pub.owner.auth } });
  assert.is(res.status, 422);
  const body = await res.json();
  assertSpec('orgAddTeamMember', { response: res, error: body });
  assert.match(body.message, /\[id\]/);
});

test.run();
