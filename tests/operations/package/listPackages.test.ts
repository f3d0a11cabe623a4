// listPackages: every version of an owner's packages, newest first, filtered by type and name; a private
// owner's are 404 to outsiders and anonymous callers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { packageWorld, publishGeneric, type PackageWorld } from '../../helpers/packages.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: PackageWorld;
test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
  await publishGeneric(app, w.writer, w.org.name, { name: 'alpha', version: '1.0.0' });
  await publishGeneric(app, w.writer, w.org.name, { name: 'alpha', version: '2.0.0' });
  await publishGeneric(app, w.orgOwner, w.org.name, { name: 'beta', version: '0.1' });
});
test.after(async () => {
  await app.close();
});

const list = (auth: string | undefined, query: { type?: 'generic' | 'npm'; q?: string; page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/packages/{owner}', { params: { path: { owner: w.org.name }, query } });

test('200: newest first, with owner and creator; filters; pages', async () => {
  const res = await list(w.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('listPackages', res);
  assert.equal(res.data!.map((p) => `${p.name}@${p.version}`), ['beta@0.1', 'alpha@2.0.0', 'alpha@1.0.0']);
  assert.is(res.data![1]!.creator.login, w.writer.username);
  assert.is(res.data![1]!.owner.login, w.org.name);
  assert.is(res.data![1]!.type, 'generic');
  assert.is(res.data![1]!.repository, null);
  assert.is(res.response.headers.get('x-total-count'), '3');
  assert.equal((await list(w.reader.auth, { q: 'alp' })).data!.map((p) => p.version), ['2.0.0', '1.0.0']);
  assert.equal((await list(w.reader.auth, { type: 'npm' })).data, []);
  const page = await list(w.reader.auth, { page: 2, limit: 2 });
  assert.equal(page.data!.map((p) => p.version), ['1.0.0']);
});

test('404: an outsider, anonymous, an unknown owner', async () => {
  for (const auth of [w.outsider.auth, undefined]) {
    const res = await list(auth);
    assert.is(res.response.status, 404);
    assertSpec('listPackages', res);
  }
  assert.is((await app.client(w.reader.auth).GET('/packages/{owner}', { params: { path: { owner: 'nobody-here' } } })).response.status, 404);
});

test('a public user\'s packages: anyone reads them', async () => {
  await publishGeneric(app, w.user, w.user.username, { name: 'mine' });
  const res = await app.client().GET('/packages/{owner}', { params: { path: { owner: w.user.username } } });
  assert.equal(res.data!.map((p) => p.name), ['mine']);
});

test('403: a token without read:package', async () => {
  const t = await app.token(w.reader, ['read:repository']);
  assert.is((await list(t)).response.status, 403);
});

test.run();
