// adminDeleteUser: delete an account; refused while it owns something unless purge=true.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { actor, userRepo, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let asAdmin: string;
let reader: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin']);
  reader = await app.token(app.admin);
});
test.after(async () => {
  await app.close();
});

const del = (username: string, purge?: boolean, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).DELETE('/admin/users/{username}', { params: { path: { username }, query: purge === undefined ? {} : { purge } } });
const exists = async (username: string) => (await app.client(reader).GET('/users/{username}', { params: { path: { username } } })).response.status === 200;
const orgExists = async (org: string) => (await app.client(reader).GET('/orgs/{org}', { params: { path: { org } } })).response.status === 200;
const repoStatus = async (owner: string, repo: string) => (await app.client(reader).GET('/repos/{owner}/{repo}', { params: { path: { owner, repo } } })).response.status;
const messageOf = (error: unknown) => (error as { message: string }).message;

test('204: the account and its tokens go; what it wrote stays, shown as Ghost', async () => {
  const host = await actor(app);
  const repo = await userRepo(app, host);
  const u = await actor(app);
  const path = { owner: host.username, repo: repo.name };
  const issue = await app.client(u.auth).POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'from someone who leaves' } });
  assert.is(issue.response.status, 201);
  const res = await del(u.username);
  assert.is(res.response.status, 204);
  assertSpec('adminDeleteUser', res);
  assert.is(await exists(u.username), false);
  assert.is((await app.client(u.auth).GET('/user')).response.status, 401, 'the token went with it');
  const kept = await app.client(host.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...path, index: issue.data!.number } } });
  assert.is(kept.response.status, 200);
  assert.is(kept.data!.user.login, 'Ghost');
  // The name is free again.
  assert.is((await app.client(reader).POST('/admin/users', { body: { username: u.username, email: `again-${u.email}`, password: 'correct-horse' } })).response.status, 201);
});

test('422 while it owns a repository or belongs to an organization; purge deletes them (and an organization it alone owns)', async () => {
  const u = await actor(app);
  const repo = await userRepo(app, u);
  const owned = await createOrg(app, u);
  const orgRepo = await app.client(u.auth).POST('/orgs/{org}/repos', { params: { path: { org: owned.name } }, body: { name: 'inside' } });
  assert.is(orgRepo.response.status, 201);
  const co = await actor(app);
  const shared = await createOrg(app, co);
  // u joins `shared` as an owner through its Owners team.
  const teams = await app.client(co.auth).GET('/orgs/{org}/teams', { params: { path: { org: shared.name } } });
  assert.is((await app.client(co.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: teams.data![0]!.id, username: u.username } } })).response.status, 204);

  assert.is(await orgExists(owned.name), true);
  const refused = await del(u.username);
  assert.is(refused.response.status, 422);
  assertSpec('adminDeleteUser', refused);
  assert.match(messageOf(refused.error), /ownership of repositories/);
  assert.is(await exists(u.username), true, 'nothing deleted');
  assert.is(await repoStatus(u.username, repo.name), 200);

  assert.is((await del(u.username, true)).response.status, 204);
  assert.is(await exists(u.username), false);
  assert.is(await repoStatus(u.username, repo.name), 404);
  assert.is(await orgExists(owned.name), false, 'the organization it alone owned');
  assert.is(await repoStatus(owned.name, 'inside'), 404);
  assert.is(await orgExists(shared.name), true, 'an organization with another owner stays');
  const members = await app.client(co.auth).GET('/orgs/{org}/members', { params: { path: { org: shared.name } } });
  assert.equal(members.data!.map((m) => m.login), [co.username]);
});

test('422: a member of an organization without purge; an organization; oneself', async () => {
  const u = await actor(app);
  await createOrg(app, u);
  const member = await del(u.username);
  assert.is(member.response.status, 422);
  assert.match(messageOf(member.error), /membership of organizations/);
  const org = await createOrg(app, await actor(app));
  const o = await del(org.name);
  assert.is(o.response.status, 422);
  assert.match(messageOf(o.error), /is an organization/);
  const self = await del(app.admin.username);
  assert.is(self.response.status, 422);
  assert.is(messageOf(self.error), 'you cannot delete yourself');
  assert.is(await exists(app.admin.username), true);
});

test('404: an unknown user; 401, 403', async () => {
  assert.is((await del('no-such-user')).response.status, 404);
  const u: Actor = await actor(app);
  await assertAdminOnly(app, (auth) => del(u.username, undefined, auth), 'write:admin');
  assert.is(await exists(u.username), true);
});

test.run();
