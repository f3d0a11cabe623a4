// orgUpdateAvatar: organization owners and site admins set the organization's picture.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, getAvatar, sampleGif, sampleJpeg, samplePng } from '../../helpers/avatars.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, createOrg, fresh, orgWorld, type OrgWorld } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: OrgWorld;
test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
});
test.after(async () => {
  await app.close();
});

const upload = (auth: string | undefined, org: string, image: string) => app.client(auth).POST('/orgs/{org}/avatar', { params: { path: { org } }, body: { image } });

test('204: an owner, then a site admin; the picture is served at the organization\'s avatar_url', async () => {
  const res = await upload(w.owner.auth, w.org.name, b64(sampleJpeg));
  assert.is(res.response.status, 204);
  assertSpec('orgUpdateAvatar', res);
  const got = await getAvatar(app, w.org.id);
  assert.is(got.res.headers.get('content-type'), 'image/jpeg');
  assert.ok(got.bytes.equals(sampleJpeg));
  assert.is((await upload((await adminActor(app)).auth, w.org.name, b64(sampleGif))).response.status, 204);
  assert.ok((await getAvatar(app, w.org.id)).bytes.equals(sampleGif));
});

test('400: not base64; 422: not a picture', async () => {
  const bad = await upload(w.owner.auth, w.org.name, '@@@');
  assert.is(bad.response.status, 400);
  assertSpec('orgUpdateAvatar', bad);
  const text = await upload(w.owner.auth, w.org.name, b64(Buffer.from('hello')));
  assert.is(text.response.status, 422);
  assertSpec('orgUpdateAvatar', text);
});

test('401: anonymous; 403: members and outsiders, a token without write:organization; 404: unknown or invisible organization', async () => {
  const before = (await getAvatar(app, w.org.id)).bytes;
  const anon = await upload(undefined, w.org.name, b64(samplePng));
  assert.is(anon.response.status, 401);
  assertSpec('orgUpdateAvatar', anon);
  for (const who of [w.member, w.creator, w.outsider]) {
    const res = await upload(who.auth, w.org.name, b64(samplePng));
    assert.is(res.response.status, 403, who.username);
    assertSpec('orgUpdateAvatar', res);
  }
  const scoped = await upload(await app.token(w.owner, ['read:organization']), w.org.name, b64(samplePng));
  assert.is(scoped.response.status, 403);
  assert.ok((await getAvatar(app, w.org.id)).bytes.equals(before));
  const unknown = await upload(w.owner.auth, fresh('none'), b64(samplePng));
  assert.is(unknown.response.status, 404);
  assertSpec('orgUpdateAvatar', unknown);
  const hidden = await createOrg(app, w.owner, { visibility: 'private' });
  assert.is((await upload(w.outsider.auth, hidden.name, b64(samplePng))).response.status, 404);
  assert.is((await upload(w.owner.auth, hidden.name, b64(samplePng))).response.status, 204);
});

test.run();
