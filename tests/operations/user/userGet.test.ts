import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basic, startApp, type Client, type TestApp, type TestUser } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let pub: TestUser;
let other: TestUser;
let limited: TestUser;
let hidden: TestUser;
let restricted: TestUser;
/** Tokens (all scopes): cheaper than Basic, which hashes the password on every request. */
let asAdmin: string;
let asOther: string;
let asPub: string;
let asRestricted: string;
test.before(async () => {
  app = await startApp();
  pub = await app.user();
  other = await app.user();
  limited = await app.user({ visibility: 'limited' });
  hidden = await app.user({ visibility: 'private' });
  restricted = await app.user({ restricted: true });
  asAdmin = await app.token(app.admin);
  asOther = await app.token(other);
  asPub = await app.token(pub);
  asRestricted = await app.token(restricted);
});
test.after(async () => {
  await app.close();
});

const get = (client: Client, username: string) => client.GET('/users/{username}', { params: { path: { username } } });
const placeholder = (u: TestUser) => `${u.username.toLowerCase()}@${app.config.noReplyDomain}`;

async function expect404(client: Client, username: string, label: string) {
  const result = await get(client, username);
  assert.is(result.response.status, 404, label);
  assertSpec('userGet', result);
  assert.is(result.response.headers.get('content-length'), '0', `${label}: empty body`);
  assert.is(result.response.headers.get('content-type'), null, `${label}: no content type`);
}

test('200: anonymous callers see a public user, with the no-reply placeholder as e-mail', async () => {
  const result = await get(app.client(), pub.username);
  assert.is(result.response.status, 200);
  assertSpec('userGet', result);
  const u = result.data!;
  assert.is(u.id, pub.id);
  assert.is(u.login, pub.username);
  assert.is(u.username, pub.username);
  assert.is(u.email, placeholder(pub));
  assert.is.not(u.email, pub.email);
  assert.is(u.visibility, 'public');
  assert.is(u.type, 'User');
  assert.is(u.html_url, `${app.config.rootUrl}${pub.username}`);
  // What only the user and admins may see stays at its zero value.
  assert.is(u.login_name, '');
  assert.is(u.language, '');
  assert.is(u.last_login, '1970-01-01T00:00:00Z');
  assert.is(u.active, false);
  assert.is(u.is_admin, false);
});

test('200: anonymous callers do not learn that the site admin is an admin', async () => {
  const result = await get(app.client(), app.admin.username);
  assert.is(result.response.status, 200);
  assert.is(result.data!.is_admin, false);
  assert.is(result.data!.email, `${app.admin.username}@${app.config.noReplyDomain}`);
});

test('200: another signed-in user also sees the placeholder', async () => {
  const result = await get(app.client(asOther), pub.username);
  assert.is(result.response.status, 200);
  assert.is(result.data!.email, placeholder(pub));
  assert.is(result.data!.active, false);
});

test('200: the user themselves and the site admin see the real e-mail and account details', async () => {
  for (const [label, auth] of [['self (token)', asPub], ['self (Basic)', pub.basic], ['admin (token)', asAdmin], ['admin (Basic)', app.admin.basic]] as const) {
    const result = await get(app.client(auth), pub.username);
    assert.is(result.response.status, 200, label);
    assertSpec('userGet', result);
    assert.is(result.data!.email, pub.email, label);
    assert.is(result.data!.active, true, label);
  }
  const adminSelf = await get(app.client(asAdmin), app.admin.username);
  assert.is(adminSelf.data!.is_admin, true);
  assert.is(adminSelf.data!.email, app.admin.email);
});

test('200: the name is matched case-insensitively; the answer keeps the stored case', async () => {
  const result = await get(app.client(), pub.username.toUpperCase());
  assert.is(result.response.status, 200);
  assert.is(result.data!.login, pub.username);
});

test('200: a token with read:user works; Bearer and ?token= too', async () => {
  const t = (await app.token(other, ['read:user'])).slice('token '.length);
  for (const auth of [`token ${t}`, `Bearer ${t}`]) {
    const result = await get(app.client(auth), pub.username);
    assert.is(result.response.status, 200, auth);
  }
  const q = await fetch(`${app.url}/api/v1/users/${pub.username}?token=${t}`);
  assert.is(q.status, 200);
  assert.is((await q.json()).login, pub.username);
});

test('404: a user who does not exist (empty body)', async () => {
  await expect404(app.client(), 'no-such-user', 'anonymous');
  await expect404(app.client(asAdmin), 'no-such-user', 'admin');
});

test('404: a private user, for anonymous callers and for other users', async () => {
  await expect404(app.client(), hidden.username, 'anonymous');
  await expect404(app.client(asOther), hidden.username, 'other user (token)');
  await expect404(app.client(other.basic), hidden.username, 'other user (Basic)');
  await expect404(app.client(asRestricted), hidden.username, 'restricted user');
});

test('200: a private user, for the site admin and for themselves', async () => {
  const byAdmin = await get(app.client(asAdmin), hidden.username);
  assert.is(byAdmin.response.status, 200);
  assert.is(byAdmin.data!.visibility, 'private');
  assert.is(byAdmin.data!.email, hidden.email);

  const self = await get(app.client(hidden.basic), hidden.username);
  assert.is(self.response.status, 200);
  assert.is(self.data!.id, hidden.id);
  assert.is(self.data!.email, hidden.email);
});

test('limited user: 404 for anonymous callers and restricted users, 200 for signed-in users', async () => {
  await expect404(app.client(), limited.username, 'anonymous');
  await expect404(app.client(asRestricted), limited.username, 'restricted user');
  const signedIn = await get(app.client(asOther), limited.username);
  assert.is(signedIn.response.status, 200);
  assertSpec('userGet', signedIn);
  assert.is(signedIn.data!.visibility, 'limited');
  assert.is(signedIn.data!.email, placeholder(limited));
  const byAdmin = await get(app.client(asAdmin), limited.username);
  assert.is(byAdmin.response.status, 200);
  assert.is(byAdmin.data!.email, limited.email);
});

test('401: wrong credentials are refused even though anonymous callers are allowed', async () => {
  for (const auth of [basic(pub.username, 'wrong-password'), `token ${'c'.repeat(40)}`, 'Digest abc']) {
    const result = await get(app.client(auth), pub.username);
    assert.is(result.response.status, 401, auth);
    assertSpec('userGet', result);
    assert.type((result.error as { message: string }).message, 'string');
  }
});

test('403: a token without a user scope; a non-admin sudo', async () => {
  const t = await app.token(other, ['read:issue']);
  const scoped = await get(app.client(t), pub.username);
  assert.is(scoped.response.status, 403);
  assertSpec('userGet', scoped);
  assert.is((scoped.error as { message: string }).message, 'token does not have at least one of required scope(s): [read:user]');

  const sudo = await app.client(asOther).GET('/users/{username}', { params: { path: { username: pub.username } }, headers: { Sudo: pub.username } });
  assert.is(sudo.response.status, 403);
  assert.is((sudo.error as { message: string }).message, 'Only administrators allowed to sudo.');
});

test('200: an admin sudo as another user sees what that user sees', async () => {
  const asSelf = await app.client(asAdmin).GET('/users/{username}', { params: { path: { username: pub.username } }, headers: { Sudo: pub.username } });
  assert.is(asSelf.data!.email, pub.email, 'acting as the user: their own e-mail');
  const asStranger = await app.client(asAdmin).GET('/users/{username}', { params: { path: { username: pub.username } }, headers: { Sudo: other.username } });
  assert.is(asStranger.data!.email, placeholder(pub), 'acting as another user: the placeholder');
  const hiddenAsStranger = await app.client(asAdmin).GET('/users/{username}', { params: { path: { username: hidden.username } }, headers: { Sudo: other.username } });
  assert.is(hiddenAsStranger.response.status, 404);
});

test.run();
