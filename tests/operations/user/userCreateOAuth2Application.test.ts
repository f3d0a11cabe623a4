// POST /user/applications/oauth2 (#36): the secret once, hashed at rest; bad redirect URIs 400; anonymous 401;
// a token without write:user 403; a TOTP user's password without X-Gitea-OTP 401, with it 201.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { enrolTotp, totpCode } from '../../helpers/oauth.js';
import { actor } from '../../helpers/repos.js';
import { twoFactors } from '../../../src/db/schema/index.js';

let app: TestApp;
test.before(async () => { app = await startApp(); });
test.after(async () => { await app?.close(); });

const body = { name: 'ci', redirect_uris: ['https://ci.example.com/authorize'], confidential_client: true };

test('201 with the secret shown once; listed and read back without it; others get 404', async () => {
  const a = await actor(app);
  const r = await app.client(a.auth).POST('/user/applications/oauth2', { body });
  assert.is(r.response.status, 201);
  assert.match(r.data!.client_secret, /^gto_[a-z2-7]{52}$/);
  assert.equal(r.data!.redirect_uris, body.redirect_uris);
  const list = await app.client(a.auth).GET('/user/applications/oauth2');
  assert.is(list.data![0]!.client_secret, '');
  const one = await app.client(a.auth).GET('/user/applications/oauth2/{id}', { params: { path: { id: r.data!.id } } });
  assert.is(one.response.status, 200);
  const stranger = await actor(app);
  const theirs = await app.client(stranger.auth).GET('/user/applications/oauth2/{id}', { params: { path: { id: r.data!.id } } });
  assert.is(theirs.response.status, 404);
  const del = await app.client(stranger.auth).DELETE('/user/applications/oauth2/{id}', { params: { path: { id: r.data!.id } } });
  assert.is(del.response.status, 404);
  const upd = await app.client(a.auth).PATCH('/user/applications/oauth2/{id}', { params: { path: { id: r.data!.id } }, body: { ...body, name: 'ci2' } });
  assert.is(upd.response.status, 200);
  assert.is.not(upd.data!.client_secret, r.data!.client_secret);
});

test('400 for a bad redirect URI, 422 without one, 401 anonymous, 403 without write:user', async () => {
  const a = await actor(app);
  const bad = await app.client(a.auth).POST('/user/applications/oauth2', { body: { ...body, redirect_uris: ['https://x.example/*#frag'] } });
  assert.is(bad.response.status, 400);
  const none = await app.client(a.auth).POST('/user/applications/oauth2', { body: { ...body, redirect_uris: [] } });
  assert.is(none.response.status, 422);
  const anon = await app.client().POST('/user/applications/oauth2', { body });
  assert.is(anon.response.status, 401);
  const readOnly = await app.token(a, ['read:user']);
  const ro = await app.client(readOnly).POST('/user/applications/oauth2', { body });
  assert.is(ro.response.status, 403);
});

test('X-Gitea-OTP: a TOTP user\'s password needs the current passcode; tokens do not', async () => {
  const a = await actor(app);
  const secret = await enrolTotp(app, a);
  const without = await app.client(a.basic).GET('/user');
  assert.is(without.response.status, 401);
  const wrong = await fetch(`${app.url}/api/v1/user`, { headers: { Authorization: a.basic, 'X-Gitea-OTP': '000000' } });
  assert.is(wrong.status, 401);
  const right = await fetch(`${app.url}/api/v1/user`, { headers: { Authorization: a.basic, 'X-Gitea-OTP': totpCode(secret) } });
  assert.is(right.status, 200);
  const token = await app.client(a.auth).GET('/user');
  assert.is(token.response.status, 200);
});

test('the TOTP secret is stored sealed under SECRET_KEY; a plain one from before still works and is sealed at start', async () => {
  const a = await actor(app);
  const secret = await enrolTotp(app, a);
  const { db } = app.services.deps;
  const stored = async () => (await db.select().from(twoFactors).where(eq(twoFactors.userId, a.id)))[0]!.secret;
  const sealed = await stored();
  assert.match(sealed, /^v1\.[0-9a-f]{8}\./);
  assert.not.ok(sealed.includes(secret));
  // Moved to another user, the sealed value opens for nobody: that user's passcodes are all refused.
  const b = await actor(app);
  const otherSecret = await enrolTotp(app, b);
  await db.update(twoFactors).set({ secret: sealed }).where(eq(twoFactors.userId, b.id));
  const moved = await fetch(`${app.url}/api/v1/user`, { headers: { Authorization: b.basic, 'X-Gitea-OTP': totpCode(secret) } });
  assert.is(moved.status, 401);
  // A row written before encryption (plain base32) is read as it is, then sealed by reencrypt.
  await db.update(twoFactors).set({ secret: otherSecret }).where(eq(twoFactors.userId, b.id));
  const plain = await fetch(`${app.url}/api/v1/user`, { headers: { Authorization: b.basic, 'X-Gitea-OTP': totpCode(otherSecret) } });
  assert.is(plain.status, 200);
  const done = await app.services.twoFactor.reencrypt();
  assert.ok(done.moved >= 1 && done.unreadable >= 0, JSON.stringify(done));
  assert.match(await (async () => (await db.select().from(twoFactors).where(eq(twoFactors.userId, b.id)))[0]!.secret)(), /^v1\./);
  const after = await fetch(`${app.url}/api/v1/user`, { headers: { Authorization: b.basic, 'X-Gitea-OTP': totpCode(otherSecret) } });
  assert.is(after.status, 200);
});

test.run();
