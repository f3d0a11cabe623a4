import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addGpgKey, gpgPair } from '../../helpers/gpg.js';
import { assertEmpty404, people, type People } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

const del = (id: number, authorization?: string) => app.client(authorization).DELETE('/user/gpg_keys/{id}', { params: { path: { id } } });
const get = (id: number, authorization: string) => app.client(authorization).GET('/user/gpg_keys/{id}', { params: { path: { id } } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('204: the key and its subkeys go; the key may be added again', async () => {
  const pair = await gpgPair(p.writer.email);
  const k = await addGpgKey(app, p.writer, pair);
  const r = await del(k.id, p.writer.auth);
  assert.is(r.response.status, 204);
  assertSpec('userCurrentDeleteGPGKey', r);
  assertEmpty404(await get(k.id, p.writer.auth), 'key');
  assertEmpty404(await get(k.subkeys[0]!.id, p.writer.auth), 'subkey');
  assertEmpty404(await del(k.id, p.writer.auth), 'again');
  assert.is((await addGpgKey(app, p.writer, pair)).key_id, pair.keyId);
});

test('404: a subkey’s id, another user’s key (the site admin included); 401', async () => {
  const k = await addGpgKey(app, p.reader, await gpgPair(p.reader.email));
  assertEmpty404(await del(k.subkeys[0]!.id, p.reader.auth), 'subkey id');
  for (const as of [p.writer, p.admin]) {
    const r = await del(k.id, as.auth);
    assertEmpty404(r, as.username);
    assertSpec('userCurrentDeleteGPGKey', r);
  }
  const anon = await del(k.id);
  assert.is(anon.response.status, 401);
  assert.is((await get(k.id, p.reader.auth)).response.status, 200, 'still there');
});

test.run();
