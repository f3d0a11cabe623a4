// renameOrg: an organization's owners (and site administrators) rename it; its repositories move with it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertRenamedWithRepo } from '../../helpers/people.js';
import { assertRedirects } from '../../helpers/redirects.js';
import { actor, fresh, messageOf, orgRepo, orgWorld } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

const rename = (org: string, new_name: string, auth?: string) =>
  app.client(auth).POST('/orgs/{org}/rename', { params: { path: { org } }, body: { new_name } });

test('204 for an owner: the organization and its repositories answer under the new name', async () => {
  const w = await orgWorld(app);
  const repo = await orgRepo(app, w.org.name, w.owner, { auto_init: true });
  const to = fresh('org');
  const res = await rename(w.org.name, to, w.owner.auth);
  assert.is(res.response.status, 204);
  assertSpec('renameOrg', res);
  const got = await app.client(w.owner.auth).GET('/orgs/{org}', { params: { path: { org: to } } });
  assert.is(got.data!.name, to);
  assert.is(got.data!.id, w.org.id);
  // The old name leads to the new one (Gitea's user redirect), the rest of the path and the query kept.
  await assertRedirects(app, 'GET', `/api/v1/orgs/${w.org.name}`, `/api/v1/orgs/${to}`, w.owner.auth);
  await assertRedirects(app, 'GET', `/api/v1/orgs/${w.org.name}/repos?limit=1`, `/api/v1/orgs/${to}/repos?limit=1`);
  await assertRenamedWithRepo(app, w.owner.auth, w.org.name, to, repo.name);
  // A site administrator may rename it too; the same name is a no-op.
  const admin = await app.token(app.admin, ['write:organization']);
  assert.is((await rename(to, to, admin)).response.status, 204);
  assert.is((await rename(to, to.toUpperCase(), admin)).response.status, 204);
  assert.is((await app.client(w.owner.auth).GET('/orgs/{org}', { params: { path: { org: to } } })).data!.name, to.toUpperCase());
});

test('403 for members who are not owners; 404 for outsiders of a private organization; 401 anonymous', async () => {
  const w = await orgWorld(app, 'private');
  for (const who of [w.member, w.teamAdmin, w.creator]) {
    const res = await rename(w.org.name, fresh('x'), who.auth);
    assert.is(res.response.status, 403, who.username);
    assert.is(messageOf(res.error), 'Must be an organization owner');
  }
  assertSpec('renameOrg', await rename(w.org.name, fresh('x'), w.member.auth));
  assert.is((await rename(w.org.name, fresh('x'), w.outsider.auth)).response.status, 404);
  assert.is((await rename(w.org.name, fresh('x'))).response.status, 401);
  const readOnly = await app.token(w.owner, ['read:organization']);
  assert.is((await rename(w.org.name, fresh('x'), readOnly)).response.status, 403);
  assert.is((await app.client(w.owner.auth).GET('/orgs/{org}', { params: { path: { org: w.org.name } } })).response.status, 200, 'unchanged');
});

test('422: a name another user or organization has, an invalid or reserved name', async () => {
  const w = await orgWorld(app);
  const someone = await actor(app);
  const taken = await rename(w.org.name, someone.username, w.owner.auth);
  assert.is(taken.response.status, 422);
  assertSpec('renameOrg', taken);
  assert.is(messageOf(taken.error), `user already exists [name: ${someone.username}]`);
  assert.is((await rename(w.org.name, 'two..dots', w.owner.auth)).response.status, 422);
  assert.is(messageOf((await rename(w.org.name, 'explore', w.owner.auth)).error), 'name is reserved [name: explore]');
  assert.is((await rename(w.org.name, '', w.owner.auth)).response.status, 422);
});

test.run();
