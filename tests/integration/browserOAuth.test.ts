// Signing in with anvil (#36) in a real browser: a test client on 127.0.0.1 sends the user to
// /login/oauth/authorize, the user signs in (with and without TOTP) and grants access, the client
// exchanges the code (a confidential client with its secret, a public one with PKCE), calls the API,
// clones a private repository with the token and refreshes it (rotation). A wrong redirect_uri, a reused
// code, a wrong verifier and a forged CSRF token are refused; deleting the application, or revoking its
// grant, makes the next API call 401.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserTest, openBrowser, type BrowserSession } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import {
  authorizeUrl, callbackServer, createApplication, enrolTotp, pkcePair, prefixProxy, signInOnPage, tokenRequest, type Callback,
} from '../helpers/oauth.js';
import { actor, userRepo, type Actor, type Repository } from '../helpers/repos.js';

const it = browserTest('browserOAuth');
let app: TestApp;
let browser: BrowserSession;
let callback: Callback;
let alice: Actor;
let secretRepo: Repository;
let work: string;

test.before(async () => {
  if (it !== test) return;
  [app, browser, callback] = await Promise.all([startApp(), openBrowser(), callbackServer()]);
  alice = await actor(app);
  secretRepo = await userRepo(app, alice, { private: true, auto_init: true });
  work = mkdtempSync(join(tmpdir(), 'anvil-oauth-'));
});

test.after(async () => {
  await browser?.close();
  await callback?.close();
  await app?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const bearer = (t: unknown) => `Bearer ${String(t)}`;

function clone(url: string, dir: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'credential.helper=', 'clone', '-q', url, dir], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (err, _out, stderr) => resolve({ code: err ? 1 : 0, stderr }));
  });
}

it('a confidential client: sign in, grant, exchange, API, private clone, refresh, reuse refused, delete ends it', async () => {
  const client = await createApplication(app, alice, [callback.url]);
  const page = await browser.page();
  await page.goto(authorizeUrl(app, client.clientId, callback.url, { scope: 'openid profile email groups' }));
  await signInOnPage(page, alice);
  await page.waitForSelector('main.authorize');
  assert.ok((await page.textContent('main.authorize'))!.includes(alice.username));
  await browser.screenshot(page, 'oauth-authorize');
  const [q] = await Promise.all([callback.next(), page.click('#authorize-app')]);
  const code = q.get('code');
  assert.ok(code, `code in ${q}`);

  // Gitea's clients send JSON with the secret in the body.
  const exchanged = await tokenRequest(app, { grant_type: 'authorization_code', code: code!, redirect_uri: callback.url, client_id: client.clientId, client_secret: client.clientSecret }, { json: true });
  assert.is(exchanged.status, 200, JSON.stringify(exchanged.body));
  assert.ok(exchanged.body.access_token && exchanged.body.refresh_token && exchanged.body.id_token);

  const me = await app.client(bearer(exchanged.body.access_token)).GET('/user');
  assert.is(me.response.status, 200);
  assert.is(me.data!.login, alice.username);
  const viaQuery = await fetch(`${app.url}/api/v1/user?access_token=${String(exchanged.body.access_token)}`);
  assert.is(viaQuery.status, 200);
  const viaToken = await app.client(`token ${String(exchanged.body.access_token)}`).GET('/user');
  assert.is(viaToken.response.status, 200);

  const info = await fetch(`${app.url}/login/oauth/userinfo`, { headers: { Authorization: bearer(exchanged.body.access_token) } });
  const claims = (await info.json()) as Record<string, unknown>;
  assert.is(claims.preferred_username, alice.username);
  assert.equal(claims.groups, []);

  const port = new URL(app.url).port;
  const cloned = await clone(`http://oauth2:${String(exchanged.body.access_token)}@127.0.0.1:${port}/${secretRepo.full_name}.git`, join(work, 'a'));
  assert.is(cloned.code, 0, cloned.stderr);

  // A wrong secret.
  const wrong = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: String(exchanged.body.refresh_token) }, { basic: [client.clientId, 'gto_wrong'] });
  assert.is(wrong.status, 401);

  const refreshed = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: String(exchanged.body.refresh_token) }, { basic: [client.clientId, client.clientSecret] });
  assert.is(refreshed.status, 200, JSON.stringify(refreshed.body));
  assert.is.not(refreshed.body.refresh_token, exchanged.body.refresh_token);
  const afterRefresh = await app.client(bearer(refreshed.body.access_token)).GET('/user');
  assert.is(afterRefresh.response.status, 200);

  // The code once only: a second use is refused, and ends what the code gave (the grant is revoked).
  const again = await tokenRequest(app, { grant_type: 'authorization_code', code: code!, redirect_uri: callback.url }, { basic: [client.clientId, client.clientSecret] });
  assert.is(again.status, 400);
  assert.is(again.body.error, 'invalid_grant');
  assert.is((await app.client(bearer(refreshed.body.access_token)).GET('/user')).response.status, 401);

  // Another application (signed in already: only the consent), then it is deleted.
  const other = await createApplication(app, alice, [callback.url]);
  const page2 = await browser.page();
  await page2.goto(authorizeUrl(app, other.clientId, callback.url, { scope: 'openid' }));
  await signInOnPage(page2, alice);
  await page2.waitForSelector('main.authorize');
  const [q2] = await Promise.all([callback.next(), page2.click('#authorize-app')]);
  const second = await tokenRequest(app, { grant_type: 'authorization_code', code: q2.get('code')!, redirect_uri: callback.url }, { basic: [other.clientId, other.clientSecret] });
  assert.is(second.status, 200, JSON.stringify(second.body));
  assert.is((await app.client(bearer(second.body.access_token)).GET('/user')).response.status, 200);

  // Introspection (RFC 7662, client authentication required): the live token is active to its own client
  // and inactive to another one, the one whose grant the reused code revoked is not active, and a call
  // without client credentials is refused.
  const introspect = (token: unknown, basic?: [string, string]) =>
    fetch(`${app.url}/login/oauth/introspect`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(basic ? { Authorization: `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString('base64')}` } : {}),
      },
      body: new URLSearchParams({ token: String(token) }).toString(),
    });
  const live = await introspect(second.body.access_token, [other.clientId, other.clientSecret]);
  assert.is(live.status, 200);
  const liveBody = (await live.json()) as Record<string, unknown>;
  assert.is(liveBody.active, true, JSON.stringify(liveBody));
  assert.is(liveBody.client_id, other.clientId);
  const revoked = await introspect(refreshed.body.access_token, [client.clientId, client.clientSecret]);
  assert.is(((await revoked.json()) as Record<string, unknown>).active, false);
  const foreign = await introspect(second.body.access_token, [client.clientId, client.clientSecret]);
  assert.is(((await foreign.json()) as Record<string, unknown>).active, false);
  assert.is((await introspect(second.body.access_token)).status, 400);

  // Deleting the application ends its tokens at once.
  const del = await app.client(alice.auth).DELETE('/user/applications/oauth2/{id}', { params: { path: { id: other.id } } });
  assert.is(del.response.status, 204);
  const gone = await app.client(bearer(second.body.access_token)).GET('/user');
  assert.is(gone.response.status, 401);
  browser.assertStayedLocal();
});

it('a public client with PKCE and a TOTP user: exchange, scopes hold, refresh; revoking the grant ends the token', async () => {
  const bob = await actor(app);
  const totp = await enrolTotp(app, bob);
  const client = await createApplication(app, bob, [callback.url], false);
  const page = await browser.page();
  const first = pkcePair();
  await page.goto(authorizeUrl(app, client.clientId, callback.url, { code_challenge: first.challenge, code_challenge_method: 'S256', scope: 'read:user' }));
  await signInOnPage(page, bob, totp);
  await page.waitForSelector('main.authorize');
  const [q] = await Promise.all([callback.next(), page.click('#authorize-app')]);
  const good = await tokenRequest(app, { grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: callback.url, client_id: client.clientId, code_verifier: first.verifier });
  assert.is(good.status, 200, JSON.stringify(good.body));
  const me = await app.client(bearer(good.body.access_token)).GET('/user');
  assert.is(me.response.status, 200);
  // read:user only: writing the user, or reading repositories, is beyond the grant.
  const repos = await app.client(bearer(good.body.access_token)).GET('/user/repos');
  assert.is(repos.response.status, 403);
  const refreshed = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: String(good.body.refresh_token), client_id: client.clientId });
  assert.is(refreshed.status, 200, JSON.stringify(refreshed.body));

  // Revoking the grant on the settings page.
  await page.goto(`${app.url}/user/settings/applications`);
  await page.waitForSelector('tr.grant');
  await Promise.all([page.waitForLoadState('load'), page.click('tr.grant button[type=submit]')]);
  const after = await app.client(bearer(refreshed.body.access_token)).GET('/user');
  assert.is(after.response.status, 401);
  browser.assertStayedLocal();
});

it('a public client: a wrong PKCE verifier is refused', async () => {
  const dan = await actor(app);
  const client = await createApplication(app, dan, [callback.url], false);
  const page = await browser.page();
  const pair = pkcePair();
  await page.goto(authorizeUrl(app, client.clientId, callback.url, { code_challenge: pair.challenge, code_challenge_method: 'S256', scope: 'openid' }));
  await signInOnPage(page, dan);
  await page.waitForSelector('main.authorize');
  const [q] = await Promise.all([callback.next(), page.click('#authorize-app')]);
  const bad = await tokenRequest(app, { grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: callback.url, client_id: client.clientId, code_verifier: pkcePair().verifier });
  assert.is(bad.status, 400);
  assert.is(bad.body.error, 'invalid_grant');
  const none = await tokenRequest(app, { grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: callback.url, client_id: client.clientId });
  assert.is(none.status, 400);
});

it('a wrong redirect_uri is refused before anything else; a forged CSRF token is refused', async () => {
  const carol = await actor(app);
  const client = await createApplication(app, carol, [callback.url]);
  const page = await browser.page();
  const wrong = await page.goto(authorizeUrl(app, client.clientId, `${callback.url}/elsewhere`));
  assert.is(wrong!.status(), 400);
  assert.ok((await page.textContent('main.error'))!.includes('redirect_uri'));

  await page.goto(authorizeUrl(app, client.clientId, callback.url, { scope: 'openid' }));
  await signInOnPage(page, carol);
  await page.waitForSelector('main.authorize');
  await page.evaluate(() => { (document.querySelector('input[name=_csrf]') as HTMLInputElement).value = 'forged'; });
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('#authorize-app')]);
  assert.is(answer.status(), 400);

  // A forged sign-in form too.
  const fresh = await browser.page();
  await fresh.goto(`${app.url}/user/login`);
  await fresh.evaluate(() => { (document.querySelector('input[name=_csrf]') as HTMLInputElement).value = 'forged'; });
  await fresh.fill('input[name=user_name]', carol.username);
  await fresh.fill('input[name=password]', carol.password);
  const [signIn] = await Promise.all([fresh.waitForResponse((r) => r.request().method() === 'POST'), fresh.click('main.signin button[type=submit]')]);
  assert.is(signIn.status(), 400);
});

it('pages show a signed-in user their private repository; signing out hides it again', async () => {
  const page = await browser.page();
  const home = `${app.url}/${secretRepo.full_name}`;
  const status = async () => (await page.context().request.get(home)).status();
  assert.is(await status(), 404);
  await page.goto(`${app.url}/user/login?redirect_to=${encodeURIComponent(`/${secretRepo.full_name}`)}`);
  await signInOnPage(page, alice);
  assert.is(new URL(page.url()).pathname, `/${secretRepo.full_name}`);
  assert.ok((await page.textContent('header .account'))!.includes(alice.username));
  await page.goto(`${app.url}/user/settings/security`);
  await Promise.all([page.waitForLoadState('load'), page.click('button.logout')]);
  assert.is(await status(), 404);
});

it('one browser session: a second authorization, and one without a scope, as git-credential-oauth and tea send them', async () => {
  const erin = await actor(app);
  const client = await createApplication(app, erin, [callback.url]);
  const page = await browser.page();
  await page.goto(authorizeUrl(app, client.clientId, callback.url));
  await signInOnPage(page, erin);
  await page.waitForSelector('main.authorize');
  const [q1] = await Promise.all([callback.next(), page.click('#authorize-app')]);
  assert.ok(q1.get('code'), `code in ${q1}`);
  const first = await tokenRequest(app, { grant_type: 'authorization_code', code: q1.get('code')!, redirect_uri: callback.url }, { basic: [client.clientId, client.clientSecret] });
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.is((await app.client(bearer(first.body.access_token)).GET('/user/repos')).response.status, 200);

  // The same browser again: signed in and granted already, so straight back with a code.
  const [q2] = await Promise.all([callback.next(), page.goto(authorizeUrl(app, client.clientId, callback.url))]);
  assert.ok(q2.get('code'), `code in ${q2}`);
  const second = await tokenRequest(app, { grant_type: 'authorization_code', code: q2.get('code')!, redirect_uri: callback.url }, { basic: [client.clientId, client.clientSecret] });
  assert.is(second.status, 200, JSON.stringify(second.body));

  // git-credential-oauth in the same session: Gitea's built-in public client, PKCE, no scope, a loopback
  // redirect on any port; a public client is asked for consent every time (as Gitea, RFC 6749 10.2).
  const gco = 'a4792ccc-144e-407e-86c9-5e7d8d9c3269';
  const loopback = new URL(callback.url).origin;
  const pair = pkcePair();
  await page.goto(authorizeUrl(app, gco, loopback, { code_challenge: pair.challenge, code_challenge_method: 'S256' }));
  await page.waitForSelector('main.authorize');
  assert.ok((await page.textContent('main.authorize'))!.includes('full access'));
  const [q3] = await Promise.all([callback.next(), page.click('#authorize-app')]);
  const third = await tokenRequest(app, { grant_type: 'authorization_code', code: q3.get('code')!, redirect_uri: loopback, client_id: gco, code_verifier: pair.verifier });
  assert.is(third.status, 200, JSON.stringify(third.body));
  assert.is((await app.client(bearer(third.body.access_token)).GET('/user')).data!.login, erin.username);
  const port = new URL(app.url).port;
  const cloned = await clone(`http://oauth2:${String(third.body.access_token)}@127.0.0.1:${port}/${secretRepo.full_name}.git`, join(work, 'erin'));
  assert.is.not(cloned.code, 0, 'erin may not read alice\'s private repository');
  browser.assertStayedLocal();
});

it('behind a proxy under /git/ (ROOT_URL with a path): discovery, sign-in, consent and the exchange all carry the prefix', async () => {
  const proxy = await prefixProxy('git');
  const sub = await startApp({ ROOT_URL: proxy.rootUrl });
  try {
    proxy.target(Number(new URL(sub.url).port));
    const root = proxy.rootUrl.replace(/\/$/, '');
    const discovery = (await (await fetch(`${root}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    assert.is(discovery.issuer, root);
    assert.is(discovery.authorization_endpoint, `${root}/login/oauth/authorize`);
    assert.is(discovery.token_endpoint, `${root}/login/oauth/access_token`);
    const gail = await actor(sub);
    const client = await createApplication(sub, gail, [callback.url]);
    const page = await browser.page();
    await page.goto(authorizeUrl({ ...sub, url: root } as TestApp, client.clientId, callback.url));
    assert.match(new URL(page.url()).pathname, /^\/git\/user\/login/);
    await signInOnPage(page, gail);
    await page.waitForSelector('main.authorize');
    assert.match(new URL(page.url()).pathname, /^\/git\/login\/oauth\/interaction\//);
    const [q] = await Promise.all([callback.next(), page.click('#authorize-app')]);
    assert.is(q.get('iss'), root);
    const r = await fetch(`${root}/login/oauth/access_token`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: callback.url, client_id: client.clientId, client_secret: client.clientSecret }).toString(),
    });
    const token = (await r.json()) as Record<string, string>;
    assert.is(r.status, 200, JSON.stringify(token));
    const me = await fetch(`${root}/api/v1/user`, { headers: { Authorization: bearer(token.access_token) } });
    assert.is(((await me.json()) as { login: string }).login, gail.username);
  } finally {
    await sub.close();
    await proxy.close();
  }
});

test.run();
