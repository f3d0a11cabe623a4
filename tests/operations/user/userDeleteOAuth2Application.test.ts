// DELETE /user/applications/oauth2/{id} (#36): 204 for the owner, then 404 on a second delete; the
// application's client id is unknown at the token endpoint afterwards; 404 for another user or an
// unknown id; 401 anonymous; 403 without write:user. (Its tokens ending at once: tests/integration/browserOAuth.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createApplication, tokenRequest } from '../../helpers/oauth.js';
import { actor } from '../../helpers/repos.js';

let app: TestApp;
test.before(async () => { app = await startApp(); });
test.after(async () => { await app?.close(); });

const del = (auth: string | undefined, id: number) => app.client(auth).DELETE('/user/applications/oauth2/{id}', { params: { path: { id } } });

test('204, then 404; the client is gone from the token endpoint', async () => {
  const a = await actor(app);
  const made = await createApplication(app, a, ['https://ci.example/authorize']);
  const before = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'nope' }, { basic: [made.clientId, made.clientSecret] });
  assert.is(before.status, 400);
  assert.is((await del(a.auth, made.id)).response.status, 204);
  assert.is((await del(a.auth, made.id)).response.status, 404);
  const after = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'nope' }, { basic: [made.clientId, made.clientSecret] });
  assert.is(after.status, 401);
  assert.is(after.body.error, 'invalid_client');
  const list = await app.client(a.auth).GET('/user/applications/oauth2');
  assert.equal(list.data, []);
});

test('404 another user or unknown id; 401 anonymous; 403 without write:user; the application stays', async () => {
  const a = await actor(app);
  const made = await createApplication(app, a, ['https://ci.example/authorize']);
  assert.is((await del((await actor(app)).auth, made.id)).response.status, 404);
  assert.is((await del(a.auth, 987654)).response.status, 404);
  assert.is((await del(undefined, made.id)).response.status, 401);
  assert.is((await del(await app.token(a, ['read:user']), made.id)).response.status, 403);
  const still = await app.client(a.auth).GET('/user/applications/oauth2/{id}', { params: { path: { id: made.id } } });
  assert.is(still.response.status, 200);
});

test.run();
