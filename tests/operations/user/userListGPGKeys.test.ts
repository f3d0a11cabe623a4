import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addGpgKey, gpgPair, type GPGKey } from '../../helpers/gpg.js';
import { assertEmpty404, people, type People } from '../../helpers/issues.js';
import { actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let key: GPGKey;

const list = (username: string, authorization?: string) => app.client(authorization).GET('/users/{username}/gpg_keys', { params: { path: { username } } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  key = await addGpgKey(app, p.writer, await gpgPair(p.writer.email));
});
test.after(async () => {
  await app.close();
});

test('200: anyone, anonymous included, lists a visible user’s keys', async () => {
  for (const auth of [undefined, p.reader.auth]) {
    const r = await list(p.writer.username, auth);
    assert.is(r.response.status, 200);
    assertSpec('userListGPGKeys', r);
    assert.equal(r.data!.map((k) => [k.id, k.key_id, k.subkeys.length]), [[key.id, key.key_id, 1]]);
    assert.is(r.response.headers.get('x-total-count'), '1');
  }
});

test('404: an unknown user; a private user for others', async () => {
  assertEmpty404(await list('nobody-here'), 'unknown');
  const hidden = await actor(app, { visibility: 'private' });
  const r = await list(hidden.username, p.outsider.auth);
  assertEmpty404(r, 'private');
  assertSpec('userListGPGKeys', r);
  assert.is((await list(hidden.username, hidden.auth)).response.status, 200);
});

test.run();
