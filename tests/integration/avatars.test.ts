// GET /avatars/{id}: the picture behind avatar_url, public, cached by ETag; an identicon until an upload.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, getAvatar, pngSize, samplePng } from '../helpers/avatars.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { createOrg } from '../helpers/orgs.js';
import { siteAdmin, userRepo } from '../helpers/repos.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

test('identicon: a 290x290 PNG, the same for the same id, different for different ids; ?size is clamped', async () => {
  const [a, b] = await Promise.all([app.user(), app.user()]);
  const first = await getAvatar(app, a.id);
  assert.is(first.res.status, 200);
  assert.is(first.res.headers.get('content-type'), 'image/png');
  assert.equal(pngSize(first.bytes), { width: 290, height: 290 });
  assert.ok((await getAvatar(app, a.id)).bytes.equals(first.bytes));
  assert.not.ok((await getAvatar(app, b.id)).bytes.equals(first.bytes));
  assert.equal(pngSize((await getAvatar(app, a.id, {}, '?size=64')).bytes), { width: 64, height: 64 });
  assert.equal(pngSize((await getAvatar(app, a.id, {}, '?size=99999')).bytes), { width: 512, height: 512 });
  assert.equal(pngSize((await getAvatar(app, a.id, {}, '?size=1')).bytes), { width: 16, height: 16 });
  assert.equal(pngSize((await getAvatar(app, a.id, {}, '?size=abc')).bytes), { width: 290, height: 290 });
  // The URL the API hands out is this one.
  const user = await app.client(await app.token(a)).GET('/user');
  assert.is(user.data!.avatar_url, `${app.config.rootUrl}avatars/${a.id}`);
});

test('public: organizations and private users too, anonymously; 404: unknown or malformed ids', async () => {
  const hidden = await app.user({ visibility: 'private' });
  assert.is((await getAvatar(app, hidden.id)).res.status, 200);
  const org = await createOrg(app, hidden, { visibility: 'private' });
  const orgPic = await getAvatar(app, org.id);
  assert.is(orgPic.res.status, 200);
  assert.equal(pngSize(orgPic.bytes), { width: 290, height: 290 });
  for (const id of ['999999999', '0', 'abc', '-1', '1.5', '99999999999999999999']) {
    const res = await getAvatar(app, id);
    assert.is(res.res.status, 404, id);
  }
});

test('caching: ETag and Cache-Control; If-None-Match is 304; an upload changes the ETag; delete brings the identicon back', async () => {
  const me = await app.user();
  const auth = await app.token(me, ['write:user']);
  const first = await getAvatar(app, me.id);
  const etag = first.res.headers.get('etag')!;
  assert.match(etag, /^"[^"]+"$/);
  assert.match(first.res.headers.get('cache-control')!, /^public, max-age=\d+/);
  const again = await getAvatar(app, me.id, { 'If-None-Match': etag });
  assert.is(again.res.status, 304);
  assert.is(again.bytes.length, 0);
  assert.is((await getAvatar(app, me.id, { 'If-None-Match': '"other"' })).res.status, 200);
  assert.is((await app.client(auth).POST('/user/avatar', { body: { image: b64(samplePng) } })).response.status, 204);
  const uploaded = await getAvatar(app, me.id, { 'If-None-Match': etag });
  assert.is(uploaded.res.status, 200);
  assert.ok(uploaded.bytes.equals(samplePng));
  const etag2 = uploaded.res.headers.get('etag')!;
  assert.is.not(etag2, etag);
  assert.is((await getAvatar(app, me.id, { 'If-None-Match': `W/${etag2}` })).res.status, 304);
  assert.is((await app.client(auth).DELETE('/user/avatar')).response.status, 204);
  const back = await getAvatar(app, me.id, { 'If-None-Match': etag });
  assert.is(back.res.status, 304);
  assert.ok((await getAvatar(app, me.id)).bytes.equals(first.bytes));
});

const avatarFile = (id: number) => join(app.config.dataDir, 'avatars', String(id));

test('deleting a user or an organization removes its uploaded picture; a refused delete keeps it', async () => {
  const admin = await siteAdmin(app);
  const gone = await app.user();
  const goneAuth = await app.token(gone);
  assert.is((await app.client(goneAuth).POST('/user/avatar', { body: { image: b64(samplePng) } })).response.status, 204);
  const org = await createOrg(app, gone);
  assert.is((await app.client(goneAuth).POST('/orgs/{org}/avatar', { params: { path: { org: org.username! } }, body: { image: b64(samplePng) } })).response.status, 204);
  assert.ok(existsSync(avatarFile(gone.id)) && existsSync(avatarFile(org.id)), 'both uploaded');

  assert.is((await app.client(goneAuth).DELETE('/orgs/{org}', { params: { path: { org: org.username! } } })).response.status, 204);
  assert.not.ok(existsSync(avatarFile(org.id)), 'the organization\'s picture went with it');
  assert.is((await getAvatar(app, org.id)).res.status, 404);

  // Refused (the user still owns a repository): nothing is deleted, the picture stays.
  const repo = await userRepo(app, { ...gone, auth: goneAuth });
  const refused = await app.client(admin.auth).DELETE('/admin/users/{username}', { params: { path: { username: gone.username } } });
  assert.is(refused.response.status, 422);
  assert.ok(existsSync(avatarFile(gone.id)), 'kept after a refused delete');
  assert.is((await app.client(goneAuth).DELETE('/repos/{owner}/{repo}', { params: { path: { owner: gone.username, repo: repo.name } } })).response.status, 204);
  assert.is((await app.client(admin.auth).DELETE('/admin/users/{username}', { params: { path: { username: gone.username } } })).response.status, 204);
  assert.not.ok(existsSync(avatarFile(gone.id)), 'the user\'s picture went with them');
  assert.is((await getAvatar(app, gone.id)).res.status, 404);
});

test('purge: the organizations a user was the last owner of lose their pictures too', async () => {
  const admin = await siteAdmin(app);
  const owner = await app.user();
  const auth = await app.token(owner);
  const org = await createOrg(app, owner);
  assert.is((await app.client(auth).POST('/orgs/{org}/avatar', { params: { path: { org: org.username! } }, body: { image: b64(samplePng) } })).response.status, 204);
  assert.is((await app.client(auth).POST('/user/avatar', { body: { image: b64(samplePng) } })).response.status, 204);
  const res = await app.client(admin.auth).DELETE('/admin/users/{username}', { params: { path: { username: owner.username }, query: { purge: true } } });
  assert.is(res.response.status, 204);
  assert.not.ok(existsSync(avatarFile(owner.id)), 'user');
  assert.not.ok(existsSync(avatarFile(org.id)), 'organization');
});

test('a picture that cannot be removed is logged; the delete still succeeds', async () => {
  const admin = await siteAdmin(app);
  const user = await app.user();
  // A folder where the picture should be: rm without `recursive` refuses it.
  mkdirSync(avatarFile(user.id), { recursive: true });
  writeFileSync(join(avatarFile(user.id), 'x'), 'x');
  const log = app.services.deps.log;
  const warned: unknown[] = [];
  const warn = log.warn;
  log.warn = ((obj: unknown) => void warned.push(obj)) as typeof log.warn;
  try {
    const res = await app.client(admin.auth).DELETE('/admin/users/{username}', { params: { path: { username: user.username } } });
    assert.is(res.response.status, 204);
  } finally {
    log.warn = warn;
  }
  assert.is((await app.services.users.byId(user.id)), undefined, 'the account is gone');
  assert.equal((warned as Array<{ accountId?: number }>).map((w) => w.accountId), [user.id]);
});

test.run();
