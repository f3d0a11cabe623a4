import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, messageOf, orgWorld, type Actor, type OrgWorld } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  admin = await adminActor(app);
});
test.after(async () => {
  await app.close();
});

const del = (id: number, username: string, auth?: string) =>
  app.client(auth).DELETE('/teams/{id}/members/{username}', { params: { path: { id, username } } });

async function memberLogins(w: OrgWorld): Promise<string[]> {
  const res = await app.client(w.owner.auth).GET('/orgs/{org}/members', { params: { path: { org: w.org.name }, query: { limit: 50 } } });
  return res.data!.map((u) => u.login);
}

async function expect204(id: number, username: string, auth: string, label: string) {
  const res = await del(id, username, auth);
  assert.is(res.response.status, 204, `${label}: ${JSON.stringify(res.error)}`);
  assertSpec('orgRemoveTeamMember', res);
  assert.is(await res.response.text(), '', `${label}: empty body`);
}

test('204: an owner removes a member, whose access through the team ends at once; in no team, they leave the org', async () => {
  const w = await orgWorld(app, 'private');
  const repo = await app.client(w.owner.auth).POST('/orgs/{org}/repos', { params: { path: { org: w.org.name } }, body: { name: 'inner', private: true } });
  assert.is(repo.response.status, 201);
  assert.is((await app.client(w.owner.auth).PUT('/teams/{id}/repos/{org}/{repo}', { params: { path: { id: w.readers.id, org: w.org.name, repo: 'inner' } } })).response.status, 204);
  const read = () => app.client(w.member.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: w.org.name, repo: 'inner' } } });
  assert.is((await read()).response.status, 200, 'through the team');

  await expect204(w.readers.id, w.member.username, w.owner.auth, 'owner');
  assert.not.ok(await app.services.teams.isMember(w.readers.id, w.member.id));
  assert.is((await read()).response.status, 404, 'the access is gone');
  assert.not.ok((await memberLogins(w)).includes(w.member.username), 'in no team: out of the organization');
  assert.is((await app.client(w.member.auth).GET('/orgs/{org}', { params: { path: { org: w.org.name } } })).response.status, 404, 'the private org is hidden again');
});

test('204: a member still in another team stays in the organization', async () => {
  const w = await orgWorld(app, 'public');
  assert.is((await app.client(w.owner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: w.creators.id, username: w.member.username } } })).response.status, 204);
  await expect204(w.readers.id, w.member.username, w.owner.auth, 'one of two teams');
  assert.ok(await app.services.teams.isMember(w.creators.id, w.member.id));
  assert.ok((await memberLogins(w)).includes(w.member.username));
});

test('204: not a member (or already removed) changes nothing; a site admin, Basic sign-in', async () => {
  const w = await orgWorld(app, 'public');
  const before = await memberLogins(w);
  await expect204(w.readers.id, w.outsider.username, w.owner.auth, 'never a member');
  assert.equal(await memberLogins(w), before);
  await expect204(w.creators.id, w.creator.username, admin.auth, 'site admin');
  await expect204(w.creators.id, w.creator.username.toUpperCase(), w.owner.basic, 'again, Basic, upper-case name');
});

test('422: the last member of the owners team stays; with a second owner the first may go', async () => {
  const w = await orgWorld(app, 'public');
  const res = await del(w.owners.id, w.owner.username, w.owner.auth);
  assert.is(res.response.status, 422);
  assertSpec('orgRemoveTeamMember', res);
  assert.match(messageOf(res.error), /last member of owner team/);
  assert.ok(await app.services.teams.isMember(w.owners.id, w.owner.id));
  const deputy = await actor(app);
  assert.is((await app.client(w.owner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: w.owners.id, username: deputy.username } } })).response.status, 204);
  await expect204(w.owners.id, w.owner.username, deputy.auth, 'one of two owners');
  const team = await app.client(w.owner.auth).POST('/orgs/{org}/teams', { params: { path: { org: w.org.name } }, body: { name: 'after', permission: 'read' } });
  assert.is(team.response.status, 403, 'no longer an owner');
});

test('403: members who are not owners; a read-only token', async () => {
  const w = await orgWorld(app, 'public');
  const res = await del(w.readers.id, w.creator.username, w.member.auth);
  assert.is(res.response.status, 403);
  assertSpec('orgRemoveTeamMember', res);
  assert.match(messageOf(res.error), /Must be an organization owner/);
  const scoped = await del(w.readers.id, w.member.username, await app.token(w.owner, ['read:organization']));
  assert.is(scoped.response.status, 403);
  assert.ok(await app.services.teams.isMember(w.readers.id, w.member.id), 'still a member');
});

test('401 anonymous; 404 for an unknown team, an unknown user, or a team the caller cannot see', async () => {
  const w = await orgWorld(app, 'private');
  const anon = await del(w.readers.id, w.member.username);
  assert.is(anon.response.status, 401);
  assertSpec('orgRemoveTeamMember', anon);
  for (const [id, username, auth, label] of [
    [999_999, w.member.username, w.owner.auth, 'unknown team'],
    [w.readers.id, 'nobody-by-that-name', w.owner.auth, 'unknown user'],
    [w.readers.id, w.member.username, w.outsider.auth, 'outsider, private org'],
  ] as const) {
    const res = await del(id, username, auth);
    assert.is(res.response.status, 404, label);
    assertSpec('orgRemoveTeamMember', res);
  }
  assert.ok(await app.services.teams.isMember(w.readers.id, w.member.id), 'still a member');
});

test.run();
