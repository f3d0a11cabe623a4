// unlinkPackage: the package no longer shows a repository.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrgRepo } from '../../helpers/orgs.js';
import { packageWorld, publishGeneric, type PackageWorld } from '../../helpers/packages.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: PackageWorld;
test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
});
test.after(async () => {
  await app.close();
});

const unlink = (auth: string | undefined, name: string) =>
  app.client(auth).POST('/packages/{owner}/{type}/{name}/-/unlink', { params: { path: { owner: w.org.name, type: 'generic', name } } });

test('201 for a writer: the repository is gone from the package', async () => {
  const repo = await createOrgRepo(app, w.orgOwner, w.org.name);
  const { name, version } = await publishGeneric(app, w.writer, w.org.name);
  const path = { owner: w.org.name, type: 'generic', name };
  assert.is((await app.client(w.orgOwner.auth).POST('/packages/{owner}/{type}/{name}/-/link/{repo_name}', { params: { path: { ...path, repo_name: repo.name } } })).response.status, 201);
  const res = await unlink(w.writer.auth, name);
  assert.is(res.response.status, 201);
  assertSpec('unlinkPackage', res);
  const got = await app.client(w.writer.auth).GET('/packages/{owner}/{type}/{name}/{version}', { params: { path: { ...path, version } } });
  assert.is(got.data!.repository, null);
});

test('403 for a reader, 404 for an outsider and an unknown package, 401 anonymous', async () => {
  const { name } = await publishGeneric(app, w.writer, w.org.name);
  const reader = await unlink(w.reader.auth, name);
  assert.is(reader.response.status, 403);
  assertSpec('unlinkPackage', reader);
  assert.is((await unlink(w.outsider.auth, name)).response.status, 404);
  assert.is((await unlink(w.writer.auth, 'nope')).response.status, 404);
  assert.is((await unlink(undefined, name)).response.status, 401);
});

test.run();
