// GET /avatars/{id}: the picture behind avatar_url, public, cached by ETag; an identicon until an upload.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, getAvatar, pngSize, samplePng } from '../helpers/avatars.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { createOrg } from '../helpers/orgs.js';

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

test.run();
