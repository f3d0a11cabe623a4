// adminRenameUser: a site administrator renames a user; the user's repositories move with them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { assertRenamedWithRepo } from '../../helpers/people.js';
import { assertNotRedirected, assertRedirects } from '../../helpers/redirects.js';
import { actor, fresh, messageOf, userRepo } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['write:admin']);
});
test.after(async () => {
  await app.close();
});

const rename = (username: string, new_username: string, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).POST('/admin/users/{username}/rename', { params: { path: { username } }, body: { new_username } });

test('204: the user answers under the new name, with their repositories and their token', async () => {
  const u = await actor(app);
  const repo = await userRepo(app, u, { auto_init: true });
  const to = fresh('renamed');
  const res = await rename(u.username, to);
  assert.is(res.response.status, 204);
  assertSpec('adminRenameUser', res);
  const me = await app.client(u.auth).GET('/user');
  assert.is(me.data!.login, to, 'the same account, signed in with the same token');
  // The old name leads to the new one (Gitea's user redirect), for the user's repositories too.
  await assertRedirects(app, 'GET', `/api/v1/users/${u.username}`, `/api/v1/users/${to}`, u.auth);
  await assertRenamedWithRepo(app, u.auth, u.username, to, repo.name);
  // The old name is free again; the account that takes it ends the redirect.
  const again = await app.client(asAdmin).POST('/admin/users', { body: { username: u.username, email: `again-${u.email}`, password: 'correct-horse' } });
  assert.is(again.response.status, 201);
  const now = await app.client(u.auth).GET('/users/{username}', { params: { path: { username: u.username } } });
  assert.is(now.data!.id, again.data!.id, 'the new account, not a redirect');
  await assertNotRedirected(app, 'GET', `/api/v1/repos/${u.username}/${repo.name}`, 404, u.auth);
});

test('204: the same name is a no-op; a change of case only is allowed', async () => {
  const u = await actor(app);
  const repo = await userRepo(app, u, { auto_init: true });
  assert.is((await rename(u.username, u.username)).response.status, 204);
  const upper = u.username.toUpperCase();
  assert.is((await rename(u.username, upper)).response.status, 204);
  assert.is((await app.client(u.auth).GET('/user')).data!.login, upper);
  await assertRenamedWithRepo(app, u.auth, u.username, upper, repo.name);
});

test('422: a name taken by a user or an organization (any case), an invalid or reserved name, an organization', async () => {
  const u = await actor(app);
  const other = await actor(app);
  const org = await createOrg(app, other);
  const taken = await rename(u.username, other.username.toUpperCase());
  assert.is(taken.response.status, 422);
  assertSpec('adminRenameUser', taken);
  assert.is(messageOf(taken.error), `user already exists [name: ${other.username.toUpperCase()}]`);
  assert.is(messageOf((await rename(u.username, org.name)).error), `user already exists [name: ${org.name}]`);
  assert.is((await rename(u.username, 'bad name')).response.status, 422);
  assert.is((await rename(u.username, 'trailing-')).response.status, 422);
  assert.is(messageOf((await rename(u.username, 'api')).error), 'name is reserved [name: api]');
  const onOrg = await rename(org.name, fresh('x'));
  assert.is(onOrg.response.status, 422);
  assert.is(messageOf(onOrg.error), `${org.name} is an organization not a user`);
  assert.is((await app.client(u.auth).GET('/user')).data!.login, u.username, 'nothing changed');
});

test('404 for an unknown user; 401/403 for everyone but a site administrator with write:admin', async () => {
  assert.is((await rename(fresh('nobody'), fresh('x'))).response.status, 404);
  const u = await actor(app);
  await assertAdminOnly(app, (auth) => rename(u.username, fresh('x'), auth), 'write:admin');
  assert.is((await app.client(u.auth).GET('/user')).data!.login, u.username);
});

test.run();
