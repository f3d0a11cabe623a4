import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { people, type People } from '../../helpers/issues.js';
import { addUserKey, keyPair, type PublicKey } from '../../helpers/keys.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let mine: PublicKey[];

const list = (query: Record<string, string | number>, authorization?: string) => app.client(authorization).GET('/user/keys', { params: { query } });

test.before(async () => {
  app = await startApp();
  p = await people(app);
  mine = [await addUserKey(app, p.writer, keyPair(), 'one'), await addUserKey(app, p.writer, keyPair('ecdsa'), 'two'), await addUserKey(app, p.writer, keyPair(), 'three')];
  await addUserKey(app, p.reader);
});
test.after(async () => {
  await app.close();
});

test('200: the caller’s keys only, oldest first, paged, with X-Total-Count', async () => {
  const r = await list({}, p.writer.auth);
  assert.is(r.response.status, 200);
  assertSpec('userCurrentListKeys', r);
  assert.equal(r.data, mine);
  assert.is(r.response.headers.get('x-total-count'), '3');
  const p2 = await list({ limit: 2, page: 2 }, p.writer.auth);
  assert.equal(p2.data!.map((k) => k.id), [mine[2]!.id]);
  assert.equal((await list({}, p.outsider.auth)).data, []);
});

test('fingerprint keeps the one key; an unknown fingerprint keeps none', async () => {
  assert.equal((await list({ fingerprint: mine[1]!.fingerprint }, p.writer.auth)).data!.map((k) => k.id), [mine[1]!.id]);
  assert.equal((await list({ fingerprint: 'SHA256:nothing' }, p.writer.auth)).data, []);
});

test('401: anonymous; 403: a token without read:user', async () => {
  const anon = await list({});
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentListKeys', anon);
  const r = await list({}, await app.token(p.writer, ['read:repository']));
  assert.is(r.response.status, 403);
});

test.run();
