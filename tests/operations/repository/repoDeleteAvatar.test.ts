import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, samplePng } from '../../helpers/avatars.js';
import { repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { getRepoAvatar } from '../../helpers/repoTemplates.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const del = (target: Repository, auth: string | null) =>
  app.client(auth ?? undefined).DELETE('/repos/{owner}/{repo}/avatar', { params: { path: pathOf(target) } });
const set = async (target: Repository) => {
  const res = await app.client(r.owner.auth).POST('/repos/{owner}/{repo}/avatar', { params: { path: pathOf(target) }, body: { image: b64(samplePng) } });
  assert.is(res.response.status, 204);
};
const avatarUrl = async (target: Repository) =>
  (await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(target) } })).data!.avatar_url;

test('204: the owner removes the avatar; avatar_url is empty and the picture is no longer served; 204 again without one', async () => {
  await set(repo);
  const url = await avatarUrl(repo);
  assert.is((await getRepoAvatar(url)).status, 200);
  const res = await del(repo, r.owner.auth);
  assert.is(res.response.status, 204);
  assertSpec('repoDeleteAvatar', res);
  assert.is(await avatarUrl(repo), '');
  assert.is((await getRepoAvatar(url)).status, 404);
  assert.is((await del(repo, r.owner.auth)).response.status, 204);
});

test('roles: site admins 204; writers and readers 403 (the avatar stays); invisible 404; anonymous 401', async () => {
  await set(repo);
  const byWriter = await del(repo, r.writer.auth);
  assert.is(byWriter.response.status, 403);
  assertSpec('repoDeleteAvatar', byWriter);
  assert.is((await del(repo, r.reader.auth)).response.status, 403);
  assert.ok(await avatarUrl(repo));
  assert.is((await del(priv, r.outsider.auth)).response.status, 404);
  assert.is((await del(repo, null)).response.status, 401);
  assert.is((await del(repo, r.admin.auth)).response.status, 204);
  assert.is(await avatarUrl(repo), '');
});

test('deleting the repository removes its picture', async () => {
  await set(priv);
  const url = await avatarUrl(priv);
  const gone = await app.client(r.owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: pathOf(priv) } });
  assert.is(gone.response.status, 204);
  assert.is((await getRepoAvatar(url)).status, 404);
});

test.run();
