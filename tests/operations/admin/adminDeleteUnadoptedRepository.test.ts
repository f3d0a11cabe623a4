// DELETE /admin/unadopted/{owner}/{repo}: removes a folder no repository row owns, for site admins.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, fresh, type Actor } from '../../helpers/orgs.js';
import { expect401, expectStatus } from '../../helpers/people.js';
import { deleteUnadopted, folderExists, makeFolder } from '../../helpers/unadopted.js';

let app: TestApp;
let admin: Actor;
let owner: Actor;
test.before(async () => {
  app = await startApp();
  admin = await adminActor(app);
  owner = await actor(app);
});
test.after(async () => {
  await app?.close();
});

test('204: the folder goes (a user\'s or an organization\'s); a second delete is 404', async () => {
  const name = fresh('gone');
  makeFolder(app, owner.username, name, { branches: ['main'] });
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, admin.auth, owner.username, name), 204, 'delete');
  assert.is(folderExists(app, owner.username, name), false);
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, admin.auth, owner.username, name), 404, 'again');
  const org = await createOrg(app, owner);
  makeFolder(app, org.name, 'old');
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, admin.auth, org.name, 'old'), 204, 'org');
  assert.is(folderExists(app, org.name, 'old'), false);
});

test('404: no such owner or folder, or a repository row owns the folder (it stays, as does the repository)', async () => {
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, admin.auth, 'no-such-owner', 'x'), 404, 'owner');
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, admin.auth, owner.username, fresh('none')), 404, 'folder');
  const made = await app.client(owner.auth).POST('/user/repos', { body: { name: 'adopted', auto_init: true } });
  assert.is(made.response.status, 201);
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, admin.auth, owner.username, 'adopted'), 404, 'row');
  assert.is(folderExists(app, owner.username, 'adopted'), true);
  const files = await app.client(owner.auth).GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { owner: owner.username, repo: 'adopted', filepath: 'README.md' } } });
  assert.is(files.response.status, 200);
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, admin.auth, owner.username, 'bad..name'), 404, 'unusable name');
});

test('403: not a site administrator, or a token without the admin scope; 401: anonymous, wrong credentials', async () => {
  const name = fresh('guarded');
  makeFolder(app, owner.username, name);
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, owner.auth, owner.username, name), 403, 'user');
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, await app.token(app.admin, ['write:repository']), owner.username, name), 403, 'scope');
  await expectStatus('adminDeleteUnadoptedRepository', await deleteUnadopted(app, undefined, owner.username, name), 401, 'anonymous');
  await expect401('adminDeleteUnadoptedRepository', (auth) => deleteUnadopted(app, auth, owner.username, name));
  assert.is(folderExists(app, owner.username, name), true);
});

test.run();
