import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, people, type People } from '../../helpers/issues.js';
import { addUserKey, keyPair } from '../../helpers/keys.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

const del = (id: number, authorization?: string) => app.client(authorization).DELETE('/user/keys/{id}', { params: { path: { id } } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('204: the key goes (deleting it again is 404), and its content is free for anyone', async () => {
  const pair = keyPair();
  const k = await addUserKey(app, p.writer, pair);
  const r = await del(k.id, p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('userCurrentDeleteKey', r);
  assert.equal((await app.client(p.writer.auth).GET('/user/keys')).data, []);
  assertEmpty404(await del(k.id, p.writer.auth), 'again');
  assert.is((await addUserKey(app, p.reader, pair)).fingerprint, pair.fingerprint);
});

test('404: another user’s key, even for the site admin; 401', async () => {
  const k = await addUserKey(app, p.writer);
  for (const as of [p.reader, p.admin]) {
    const r = await del(k.id, as.auth);
    assertEmpty404(r, as.username);
    assertSpec('userCurrentDeleteKey', r);
  }
  const anon = await del(k.id);
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentDeleteKey', anon);
  assert.is((await app.client(p.writer.auth).GET('/user/keys')).data!.length, 1, 'still there');
});

test.run();
