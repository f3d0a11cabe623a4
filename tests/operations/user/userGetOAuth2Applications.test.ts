// GET /user/applications/oauth2 (#36): the caller's own applications, newest first, never a secret;
// anonymous 401; a token without read:user 403; a site admin sees only their own too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createApplication } from '../../helpers/oauth.js';
import { actor, siteAdmin } from '../../helpers/repos.js';

let app: TestApp;
test.before(async () => { app = await startApp(); });
test.after(async () => { await app?.close(); });

test('200: only the caller\'s applications, without secrets; an admin is no exception', async () => {
  const a = await actor(app);
  const b = await actor(app);
  const first = await createApplication(app, a, ['https://one.example/cb']);
  const second = await createApplication(app, a, ['http://127.0.0.1/cb'], false);
  await createApplication(app, b, ['https://other.example/cb']);
  const list = await app.client(a.auth).GET('/user/applications/oauth2');
  assert.is(list.response.status, 200);
  assert.equal(list.data!.map((x) => x.id).sort(), [first.id, second.id].sort());
  assert.ok(list.data!.every((x) => x.client_secret === ''));
  const pub = list.data!.find((x) => x.id === second.id)!;
  assert.is(pub.confidential_client, false);
  assert.equal(pub.redirect_uris, ['http://127.0.0.1/cb']);
  const admin = await siteAdmin(app);
  const adminList = await app.client(admin.auth).GET('/user/applications/oauth2');
  assert.ok(!adminList.data!.some((x) => x.id === first.id || x.id === second.id));
  const none = await app.client((await actor(app)).auth).GET('/user/applications/oauth2');
  assert.equal(none.data, []);
});

test('401 anonymous; 403 for a token without read:user; read:user is enough', async () => {
  const a = await actor(app);
  assert.is((await app.client().GET('/user/applications/oauth2')).response.status, 401);
  const repoOnly = await app.token(a, ['read:repository']);
  assert.is((await app.client(repoOnly).GET('/user/applications/oauth2')).response.status, 403);
  const readUser = await app.token(a, ['read:user']);
  assert.is((await app.client(readUser).GET('/user/applications/oauth2')).response.status, 200);
});

test.run();
