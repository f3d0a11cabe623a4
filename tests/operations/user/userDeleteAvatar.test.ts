// userDeleteAvatar: back to the generated identicon; 204 also when there was nothing to delete.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, getAvatar, sampleGif } from '../../helpers/avatars.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

test('204: the identicon is served again; deleting again is 204', async () => {
  const me = await app.user();
  const auth = await app.token(me, ['write:user']);
  const identicon = (await getAvatar(app, me.id)).bytes;
  assert.is((await app.client(auth).POST('/user/avatar', { body: { image: b64(sampleGif) } })).response.status, 204);
  assert.ok((await getAvatar(app, me.id)).bytes.equals(sampleGif));
  const res = await app.client(auth).DELETE('/user/avatar');
  assert.is(res.response.status, 204);
  assertSpec('userDeleteAvatar', res);
  const after = await getAvatar(app, me.id);
  assert.is(after.res.headers.get('content-type'), 'image/png');
  assert.ok(after.bytes.equals(identicon));
  assert.is((await app.client(auth).DELETE('/user/avatar')).response.status, 204);
});

test('401: anonymous; 403: a token without write:user; the avatar stays', async () => {
  const me = await app.user();
  assert.is((await app.client(await app.token(me, ['write:user'])).POST('/user/avatar', { body: { image: b64(sampleGif) } })).response.status, 204);
  const anon = await app.client().DELETE('/user/avatar');
  assert.is(anon.response.status, 401);
  assertSpec('userDeleteAvatar', anon);
  const scoped = await app.client(await app.token(me, ['read:user'])).DELETE('/user/avatar');
  assert.is(scoped.response.status, 403);
  assertSpec('userDeleteAvatar', scoped);
  assert.ok((await getAvatar(app, me.id)).bytes.equals(sampleGif));
});

test.run();
