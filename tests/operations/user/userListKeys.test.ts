import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, people, type People } from '../../helpers/issues.js';
import { addUserKey, type PublicKey } from '../../helpers/keys.js';
import { actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let keys: PublicKey[];

const list = (username: string, query: Record<string, string | number> = {}, authorization?: string) =>
  app.client(authorization).GET('/users/{username}/keys', { params: { path: { username }, query } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  keys = [await addUserKey(app, p.writer, undefined, 'a'), await addUserKey(app, p.writer, undefined, 'b')];
});
test.after(async () => {
  await app.close();
});

test('200: anyone, anonymous included, lists a visible user’s keys, oldest first; fingerprint filters', async () => {
  for (const auth of [undefined, p.reader.auth, p.writer.auth]) {
    const r = await list(p.writer.username, {}, auth);
    assert.is(r.response.status, 200);
    assertSpec('userListKeys', r);
    assert.equal(r.data!.map((k) => [k.id, k.fingerprint, k.key]), keys.map((k) => [k.id, k.fingerprint, k.key]));
    assert.is(r.response.headers.get('x-total-count'), '2');
  }
  assert.equal((await list(p.writer.username.toUpperCase(), { fingerprint: keys[1]!.fingerprint })).data!.map((k) => k.id), [keys[1]!.id]);
});

test('404: an unknown user, a private user for others, an organization', async () => {
  assertEmpty404(await list('nobody-here'), 'unknown');
  const hidden = await actor(app, { visibility: 'private' });
  await addUserKey(app, hidden);
  const r = await list(hidden.username, {}, p.outsider.auth);
  assertEmpty404(r, 'private user');
  assertSpec('userListKeys', r);
  assert.is((await list(hidden.username, {}, hidden.auth)).data!.length, 1, 'to themselves');
  assert.is((await list(hidden.username, {}, p.admin.auth)).data!.length, 1, 'to the site admin');
});

test.run();
