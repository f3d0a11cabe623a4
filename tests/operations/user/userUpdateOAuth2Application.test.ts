// PATCH /user/applications/oauth2/{id} (#36): the owner replaces name, redirect URIs and kind, and gets
// a new secret (the old one stops working at the token endpoint); 400 for a bad URI, 422 without one;
// 404 for another user or an unknown id; 401 anonymous; 403 without write:user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createApplication, tokenRequest } from '../../helpers/oauth.js';
import { actor } from '../../helpers/repos.js';

let app: TestApp;
test.before(async () => { app = await startApp(); });
test.after(async () => { await app?.close(); });

const patch = (auth: string | undefined, id: number, body: { name: string; redirect_uris: string[]; confidential_client?: boolean }) =>
  app.client(auth).PATCH('/user/applications/oauth2/{id}', { params: { path: { id } }, body });

test('200: the new values and a new secret; the old secret is refused at the token endpoint', async () => {
  const a = await actor(app);
  const made = await createApplication(app, a, ['https://ci.example/authorize']);
  const r = await patch(a.auth, made.id, { name: 'renamed', redirect_uris: ['https://ci.example/cb', 'https://ci.example/cb2'], confidential_client: true });
  assert.is(r.response.status, 200);
  assert.is(r.data!.name, 'renamed');
  assert.equal(r.data!.redirect_uris, ['https://ci.example/cb', 'https://ci.example/cb2']);
  assert.is(r.data!.client_id, made.clientId);
  assert.match(r.data!.client_secret, /^gto_/);
  assert.is.not(r.data!.client_secret, made.clientSecret);
  // The token endpoint checks the secret before the (made-up) refresh token: a wrong secret is 401.
  const old = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'nope' }, { basic: [made.clientId, made.clientSecret] });
  assert.is(old.status, 401);
  const fresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'nope' }, { basic: [made.clientId, r.data!.client_secret] });
  assert.is(fresh.status, 400);
  const read = await app.client(a.auth).GET('/user/applications/oauth2/{id}', { params: { path: { id: made.id } } });
  assert.is(read.data!.name, 'renamed');
});

test('400 bad redirect URI, 422 none; 404 another user or unknown id; 401 anonymous; 403 without write:user', async () => {
  const a = await actor(app);
  const made = await createApplication(app, a, ['https://ci.example/authorize']);
  const body = { name: 'x', redirect_uris: ['https://ci.example/authorize'] };
  assert.is((await patch(a.auth, made.id, { ...body, redirect_uris: ['not a uri'] })).response.status, 400);
  assert.is((await patch(a.auth, made.id, { ...body, redirect_uris: [] })).response.status, 422);
  assert.is((await patch((await actor(app)).auth, made.id, body)).response.status, 404);
  assert.is((await patch(a.auth, 987654, body)).response.status, 404);
  assert.is((await patch(undefined, made.id, body)).response.status, 401);
  assert.is((await patch(await app.token(a, ['read:user']), made.id, body)).response.status, 403);
  const kept = await app.client(a.auth).GET('/user/applications/oauth2/{id}', { params: { path: { id: made.id } } });
  assert.equal(kept.data!.redirect_uris, ['https://ci.example/authorize'], 'a refused update changed nothing');
});

test.run();
