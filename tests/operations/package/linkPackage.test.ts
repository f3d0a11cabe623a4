// linkPackage and the repository a package shows: one of the owner's repositories, by a packages writer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrgRepo } from '../../helpers/orgs.js';
import { packageWorld, publishGeneric, type PackageWorld } from '../../helpers/packages.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: PackageWorld;
let repoName: string;
test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
  repoName = (await createOrgRepo(app, w.orgOwner, w.org.name, { private: true })).name;
});
test.after(async () => {
  await app.close();
});

const link = (auth: string | undefined, name: string, repo = repoName) =>
  app.client(auth).POST('/packages/{owner}/{type}/{name}/-/link/{repo_name}', { params: { path: { owner: w.org.name, type: 'generic', name, repo_name: repo } } });

test('201: the package shows the repository', async () => {
  const { name, version } = await publishGeneric(app, w.writer, w.org.name);
  const res = await link(w.orgOwner.auth, name);
  assert.is(res.response.status, 201);
  assertSpec('linkPackage', res);
  const got = await app.client(w.orgOwner.auth).GET('/packages/{owner}/{type}/{name}/{version}', { params: { path: { owner: w.org.name, type: 'generic', name, version } } });
  assert.is(got.data!.repository?.name, repoName);
});

test('403 for a reader and for a packages writer who cannot write the repository; 404s', async () => {
  const { name } = await publishGeneric(app, w.writer, w.org.name);
  const reader = await link(w.reader.auth, name);
  assert.is(reader.response.status, 403);
  assertSpec('linkPackage', reader);
  // The writers team holds no repositories: the writer cannot write a public one (403), nor see a private one (404).
  const pub = await createOrgRepo(app, w.orgOwner, w.org.name, { private: false });
  assert.is((await link(w.writer.auth, name, pub.name)).response.status, 403);
  assert.is((await link(w.writer.auth, name)).response.status, 404);
  for (const [auth, pkg, repo] of [[w.orgOwner.auth, name, 'no-such-repo'], [w.orgOwner.auth, 'nope', repoName], [w.outsider.auth, name, repoName]] as const) {
    const res = await link(auth, pkg, repo);
    assert.is(res.response.status, 404, `${pkg} ${repo}`);
    assertSpec('linkPackage', res);
  }
  assert.is((await link(undefined, name)).response.status, 401);
});

test.run();
