// orgDeleteAvatar: organization owners and site admins put the identicon back.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { b64, getAvatar, sampleGif } from '../../helpers/avatars.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { adminActor, createOrg, fresh, orgWorld, type OrgWorld } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: OrgWorld;
let identicon: Buffer;
test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
  identicon = (await getAvatar(app, w.org.id)).bytes;
});
test.after(async () => {
  await app.close();
});

const setAvatar = async () => {
  const res = await app.client(w.owner.auth).POST('/orgs/{org}/avatar', { params: { path: { org: w.org.name } }, body: { image: b64(sampleGif) } });
  assert.is(res.response.status, 204);
};
const remove = (auth: string | undefined, org = w.org.name) => app.client(auth).DELETE('/orgs/{org}/avatar', { params: { path: { org } } });

test('204: an owner, a site admin; the identicon is back; again is 204', async () => {
  for (const auth of [w.owner.auth, (await adminActor(app)).auth]) {
    await setAvatar();
    const res = await remove(auth);
    assert.is(res.response.status, 204);
    assertSpec('orgDeleteAvatar', res);
    assert.ok((await getAvatar(app, w.org.id)).bytes.equals(identicon));
  }
  assert.is((await remove(w.owner.auth)).response.status, 204);
});

test('401: anonymous; 403: members and outsiders, a token without write:organization; 404: unknown or invisible organization', async () => {
  await setAvatar();
  const anon = await remove(undefined);
  assert.is(anon.response.status, 401);
  assertSpec('orgDeleteAvatar', anon);
  for (const who of [w.member, w.creator, w.outsider]) {
    const res = await remove(who.auth);
    assert.is(res.response.status, 403, who.username);
    assertSpec('orgDeleteAvatar', res);
  }
  assert.is((await remove(await app.token(w.owner, ['read:organization']))).response.status, 403);
  assert.ok((await getAvatar(app, w.org.id)).bytes.equals(sampleGif));
  const unknown = await remove(w.owner.auth, fresh('none'));
  assert.is(unknown.response.status, 404);
  assertSpec('orgDeleteAvatar', unknown);
  const hidden = await createOrg(app, w.owner, { visibility: 'private' });
  assert.is((await remove(w.outsider.auth, hidden.name)).response.status, 404);
});

test.run();
