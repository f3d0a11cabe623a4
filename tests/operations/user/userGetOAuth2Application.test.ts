// GET /user/applications/oauth2/{id} (#36): the owner reads it (no secret); another user, a site admin
// and an unknown id get 404; anonymous 401; a token without read:user 403.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createApplication } from '../../helpers/oauth.js';
import { actor, siteAdmin } from '../../helpers/repos.js';

let app: TestApp;
test.before(async () => { app = await startApp(); });
test.after(async () => { await app?.close(); });

const get = (auth: string | undefined, id: number) => app.client(auth).GET('/user/applications/oauth2/{id}', { params: { path: { id } } });

test('200 for the owner, without the secret', async () => {
  const a = await actor(app);
  const made = await createApplication(app, a, ['https://ci.example/authorize']);
  const r = await get(a.auth, made.id);
  assert.is(r.response.status, 200);
  assert.is(r.data!.client_id, made.clientId);
  assert.is(r.data!.client_secret, '');
  assert.equal(r.data!.redirect_uris, ['https://ci.example/authorize']);
  assert.is(r.data!.confidential_client, true);
});

test('404 for another user, a site admin, an unknown id; 401 anonymous; 403 without read:user', async () => {
  const a = await actor(app);
  const made = await createApplication(app, a, ['https://ci.example/authorize']);
  assert.is((await get((await actor(app)).auth, made.id)).response.status, 404);
  assert.is((await get((await siteAdmin(app)).auth, made.id)).response.status, 404);
  assert.is((await get(a.auth, 987654)).response.status, 404);
  assert.is((await get(undefined, made.id)).response.status, 401);
  assert.is((await get(await app.token(a, ['read:issue']), made.id)).response.status, 403);
});

test.run();
