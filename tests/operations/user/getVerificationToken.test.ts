import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { tokenOf } from '../../helpers/gpg.js';
import { people, type People } from '../../helpers/issues.js';

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('200: a plain-text token of 64 hex digits, different for each user', async () => {
  const r = await fetch(`${app.url}/api/v1/user/gpg_key_token`, { headers: { Authorization: p.writer.auth } });
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', 'text/plain');
  const token = await r.text();
  assert.match(token, /^[0-9a-f]{64}$/);
  assert.is.not(await tokenOf(app, p.reader), token);
});

test('401: anonymous; 403: a token without read:user', async () => {
  assert.is((await fetch(`${app.url}/api/v1/user/gpg_key_token`)).status, 401);
  const scoped = await app.token(p.writer, ['read:issue']);
  assert.is((await fetch(`${app.url}/api/v1/user/gpg_key_token`, { headers: { Authorization: scoped } })).status, 403);
});

test.run();
