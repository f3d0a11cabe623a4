// adminCreateRepo: a repository created for a user or an organization.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { actor, fresh } from '../../helpers/repos.js';
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

const create = (username: string, body: { name: string; private?: boolean; auto_init?: boolean }, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).POST('/admin/users/{username}/repos', { params: { path: { username } }, body });

test('201: the repository belongs to the user, who owns it; to an organization likewise', async () => {
  const u = await actor(app);
  const name = fresh('repo');
  const res = await create(u.username, { name, private: true, auto_init: true });
  assert.is(res.response.status, 201);
  assertSpec('adminCreateRepo', res);
  assert.equal([res.data!.full_name, res.data!.private, res.data!.empty, res.data!.owner.login], [`${u.username}/${name}`, true, false, u.username]);
  const perm = await app.client(u.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: u.username, repo: name } } });
  assert.equal(perm.data!.permissions, { admin: true, push: true, pull: true });
  const org = await createOrg(app, u);
  const inOrg = await create(org.name, { name: 'shared' });
  assert.is(inOrg.response.status, 201);
  assert.is(inOrg.data!.full_name, `${org.name}/shared`);
});

test('409: a repository of that name; 422: a bad name; 404: an unknown owner', async () => {
  const u = await actor(app);
  assert.is((await create(u.username, { name: 'twice' })).response.status, 201);
  const again = await create(u.username, { name: 'TWICE' });
  assert.is(again.response.status, 409);
  assertSpec('adminCreateRepo', again);
  const bad = await create(u.username, { name: 'a..b' });
  assert.is(bad.response.status, 422);
  assertSpec('adminCreateRepo', bad);
  assert.is((await create('no-such-user', { name: 'x' })).response.status, 404);
});

test('401, 403: nothing is created', async () => {
  const u = await actor(app);
  await assertAdminOnly(app, (auth) => create(u.username, { name: 'never' }, auth), 'write:admin');
  assert.is((await app.client(u.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: u.username, repo: 'never' } } })).response.status, 404);
});

test.run();
