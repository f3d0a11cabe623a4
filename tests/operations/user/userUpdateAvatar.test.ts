// userUpdateAvatar: the caller's picture, checked by content and size, then served at avatar_url.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, getAvatar, pngClaiming, sampleGif, sampleJpeg, samplePng, sampleWebp } from '../../helpers/avatars.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { messageOf } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

const upload = (auth: string | undefined, image: string) => app.client(auth).POST('/user/avatar', { body: { image } });

test('204: each accepted kind replaces the last and is served as sent, with its content type', async () => {
  const me = await app.user();
  const auth = await app.token(me, ['write:user']);
  for (const [bytes, type] of [[samplePng, 'image/png'], [sampleGif, 'image/gif'], [sampleJpeg, 'image/jpeg'], [sampleWebp, 'image/webp']] as const) {
    const res = await upload(auth, b64(bytes));
    assert.is(res.response.status, 204, type);
    assertSpec('userUpdateAvatar', res);
    const got = await getAvatar(app, me.id);
    assert.is(got.res.status, 200);
    assert.is(got.res.headers.get('content-type'), type);
    assert.ok(got.bytes.equals(bytes), type);
  }
  // Line breaks in the base64 are ignored, as Go's decoder does.
  const wrapped = b64(samplePng).replace(/(.{20})/g, '$1\r\n');
  assert.is((await upload(auth, wrapped)).response.status, 204);
  assert.ok((await getAvatar(app, me.id)).bytes.equals(samplePng));
});

test('400: not base64; 413: over 1 MiB; 422: not a picture, empty, over 4096 pixels; the avatar is unchanged', async () => {
  const me = await app.user();
  const auth = await app.token(me, ['write:user']);
  assert.is((await upload(auth, b64(sampleGif))).response.status, 204);
  const bad = await upload(auth, 'not base64!');
  assert.is(bad.response.status, 400);
  assertSpec('userUpdateAvatar', bad);
  assert.match(messageOf(bad.error), /base64/);
  const big = Buffer.concat([samplePng, Buffer.alloc(1024 * 1024)]);
  const tooLarge = await upload(auth, b64(big));
  assert.is(tooLarge.response.status, 413);
  assertSpec('userUpdateAvatar', tooLarge);
  for (const bytes of [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), Buffer.alloc(0), pngClaiming(5000, 10), pngClaiming(10, 4097)]) {
    const res = await upload(auth, b64(bytes));
    assert.is(res.response.status, 422, bytes.subarray(0, 8).toString('hex'));
    assertSpec('userUpdateAvatar', res);
  }
  // Exactly the limits pass.
  assert.is((await upload(auth, b64(pngClaiming(4096, 4096)))).response.status, 204);
  assert.is((await upload(auth, b64(sampleGif))).response.status, 204);
  assert.ok((await getAvatar(app, me.id)).bytes.equals(sampleGif));
});

test('401: anonymous; 403: a token without write:user; another account\'s avatar is untouched', async () => {
  const me = await app.user();
  const anon = await upload(undefined, b64(samplePng));
  assert.is(anon.response.status, 401);
  assertSpec('userUpdateAvatar', anon);
  const scoped = await upload(await app.token(me, ['read:user']), b64(samplePng));
  assert.is(scoped.response.status, 403);
  assertSpec('userUpdateAvatar', scoped);
  const got = await getAvatar(app, me.id);
  assert.ok(!got.bytes.equals(samplePng));
  assert.is(got.res.headers.get('content-type'), 'image/png');
});

test.run();
