import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, pngClaiming, sampleGif, samplePng } from '../../helpers/avatars.js';
import { repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { getRepoAvatar } from '../../helpers/repoTemplates.js';
import { addCollaborator, messageOf, pathOf, type Repository } from '../../helpers/repos.js';
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

const post = (target: Repository, auth: string | null, image: string) =>
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/avatar', { params: { path: pathOf(target) }, body: { image } });
const avatarUrl = async (target: Repository) =>
  (await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(target) } })).data!.avatar_url;

test('204: the owner sets the avatar; avatar_url serves it; a new upload gets a new url and the old one goes', async () => {
  assert.is(await avatarUrl(repo), '');
  const res = await post(repo, r.owner.auth, b64(samplePng));
  assert.is(res.response.status, 204, JSON.stringify(res.error));
  assertSpec('repoUpdateAvatar', res);
  const first = await avatarUrl(repo);
  assert.match(first, new RegExp(`^${app.config.rootUrl}repo-avatars/[0-9a-f]{64}$`));
  const got = await getRepoAvatar(first);
  assert.equal([got.status, got.type, got.bytes.equals(samplePng)], [200, 'image/png', true]);

  assert.is((await post(repo, r.owner.auth, b64(sampleGif))).response.status, 204);
  const second = await avatarUrl(repo);
  assert.is.not(second, first);
  const now = await getRepoAvatar(second);
  assert.equal([now.status, now.type, now.bytes.equals(sampleGif)], [200, 'image/gif', true]);
  assert.is((await getRepoAvatar(first)).status, 404, 'the replaced picture is gone');
});

test('roles: admin collaborators and site admins 204; writers and readers 403; invisible 404; anonymous 401', async () => {
  const admin = await app.user();
  const adminActor = { ...admin, auth: await app.token(admin) };
  await addCollaborator(app, repo, admin, 'admin');
  assert.is((await post(repo, adminActor.auth, b64(samplePng))).response.status, 204);
  assert.is((await post(repo, r.admin.auth, b64(samplePng))).response.status, 204);
  const byWriter = await post(repo, r.writer.auth, b64(samplePng));
  assert.is(byWriter.response.status, 403);
  assertSpec('repoUpdateAvatar', byWriter);
  assert.is((await post(repo, r.reader.auth, b64(samplePng))).response.status, 403);
  const hidden = await post(priv, r.outsider.auth, b64(samplePng));
  assert.is(hidden.response.status, 404);
  assert.is((await post(repo, null, b64(samplePng))).response.status, 401);
  assert.is(await avatarUrl(priv), '', 'nothing was set by the refused callers');
});

test('400 not base64, 413 over 1 MiB, 422 not a picture or too large; the avatar stays as it was', async () => {
  assert.is((await post(repo, r.owner.auth, b64(samplePng))).response.status, 204);
  const before = await avatarUrl(repo);
  const notB64 = await post(repo, r.owner.auth, 'not base64!');
  assert.is(notB64.response.status, 400);
  assertSpec('repoUpdateAvatar', notB64);
  const huge = await post(repo, r.owner.auth, b64(Buffer.alloc(1024 * 1024 + 10, 1)));
  assert.is(huge.response.status, 413);
  const text = await post(repo, r.owner.auth, b64(Buffer.from('just some text')));
  assert.is(text.response.status, 422);
  assert.match(messageOf(text.error), 'PNG, JPEG, GIF or WebP');
  const big = await post(repo, r.owner.auth, b64(pngClaiming(5000, 10)));
  assert.is(big.response.status, 422);
  assert.is(await avatarUrl(repo), before);
});

test('GET /repo-avatars/{key}: an unknown or malformed key is an empty 404', async () => {
  assert.is((await getRepoAvatar(`${app.config.rootUrl}repo-avatars/${'0'.repeat(64)}`)).status, 404);
  assert.is((await getRepoAvatar(`${app.config.rootUrl}repo-avatars/..%2Fx`)).status, 404);
});

test.run();
