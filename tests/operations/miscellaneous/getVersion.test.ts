import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

test('anonymous callers get the Gitea-compatible version', async () => {
  const { data, response } = await app.client().GET('/version');
  assert.is(response.status, 200);
  assert.match(data!.version, /^1\.26\.0\+anvil-\d+\.\d+\.\d+/);
});

test('any valid token works, whatever its scopes', async () => {
  const user = await app.user();
  const token = await app.token(user, ['read:issue']);
  const { response } = await app.client(token).GET('/version');
  assert.is(response.status, 200);
});

test('a wrong token is 401 with a message', async () => {
  const { error, response } = await app.client('token ' + 'f'.repeat(40)).GET('/version');
  assert.is(response.status, 401);
  assert.type((error as { message: string }).message, 'string');
});

test.run();
