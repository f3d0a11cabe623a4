import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addGpgKey, gpgPair, type GPGKey } from '../../helpers/gpg.js';
import { people, type People } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let keys: GPGKey[];

const list = (query: Record<string, number>, authorization?: string) => app.client(authorization).GET('/user/gpg_keys', { params: { query } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  keys = [];
  for (let i = 0; i < 3; i++) keys.push(await addGpgKey(app, p.writer, await gpgPair(p.writer.email, `Key ${i}`)));
  await addGpgKey(app, p.reader, await gpgPair(p.reader.email));
});
test.after(async () => {
  await app.close();
});

test('200: the caller’s keys (subkeys inside, not listed apart), oldest first, with pages', async () => {
  const r = await list({}, p.writer.auth);
  assert.is(r.response.status, 200);
  assertSpec('userCurrentListGPGKeys', r);
  assert.equal(r.data, keys);
  assert.is(r.response.headers.get('x-total-count'), '3');
  assert.equal((await list({ limit: 2, page: 2 }, p.writer.auth)).data!.map((k) => k.id), [keys[2]!.id]);
  assert.equal((await list({}, p.outsider.auth)).data, []);
  const anon = await list({});
  assert.is(anon.response.status, 401);
});

test.run();
