import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, adminActor, createOrg, messageOf, orgWorld, type Actor, type OrgWorld } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let pub: OrgWorld;
let limited: OrgWorld;
let priv: OrgWorld;
let restricted: Actor;
let admin: Actor;
test.before(async () => {
  app = await startApp();
  [pub, limited, priv, restricted, admin] = await Promise.all([
    orgWorld(app, 'public'),
    orgWorld(app, 'limited'),
    orgWorld(app, 'private'),
    actor(app, { restricted: true }),
    adminActor(app),
  ]);
});
test.after(async () => {
  await app.close();
});

const get = (org: string, auth?: string) => app.client(auth).GET('/orgs/{org}', { params: { path: { org } } });

async function expectOrg(w: OrgWorld, auth: string | undefined, label: string, email = w.org.email) {
  const res = await get(w.org.name, auth);
  assert.is(res.response.status, 200, label);
  assertSpec('orgGet', res);
  assert.equal(res.data, { ...w.org, email }, label);
}

async function expect404(org: string, auth: string | undefined, label: string) {
  const res = await get(org, auth);
  assert.is(res.response.status, 404, label);
  assertSpec('orgGet', res);
  assert.is(await res.response.text(), '', `${label}: empty body`);
}

test('200: a public organization is visible to everyone; anonymous callers do not see the e-mail', async () => {
  const owner = await actor(app);
  const org = await createOrg(app, owner, { email: 'team@pub.example', full_name: 'Pub', description: 'd', location: 'l', website: 'http://pub.example' });
  const anon = await get(org.name);
  assert.is(anon.response.status, 200);
  assertSpec('orgGet', anon);
  assert.equal(anon.data, { ...org, email: '' });
  const outsider = await actor(app);
  const seen = await get(org.name, outsider.auth);
  assert.equal(seen.data, org, 'a signed-in caller sees the e-mail');
  assert.is(seen.data!.email, 'team@pub.example');
});

test('200: Basic authentication works as well as a token', async () => {
  await expectOrg(priv, priv.member.basic, 'member with Basic');
  await expectOrg(priv, app.admin.basic, 'admin with Basic');
});

test('200: every role sees a public organization', async () => {
  await expectOrg(pub, undefined, 'anonymous', '');
  for (const [label, u] of [['outsider', pub.outsider], ['restricted', restricted], ['member', pub.member], ['creator', pub.creator], ['owner', pub.owner], ['admin', admin]] as const) {
    await expectOrg(pub, u.auth, label);
  }
});

test('limited: signed-in callers who are not restricted, members and admins; anonymous 404', async () => {
  await expect404(limited.org.name, undefined, 'anonymous');
  await expect404(limited.org.name, restricted.auth, 'restricted outsider');
  for (const [label, u] of [['outsider', limited.outsider], ['member', limited.member], ['creator', limited.creator], ['owner', limited.owner], ['admin', admin]] as const) {
    await expectOrg(limited, u.auth, label);
  }
});

test('private: members and site admins only; anyone else 404', async () => {
  await expect404(priv.org.name, undefined, 'anonymous');
  await expect404(priv.org.name, priv.outsider.auth, 'outsider');
  await expect404(priv.org.name, restricted.auth, 'restricted outsider');
  await expect404(priv.org.name, pub.owner.auth, 'owner of another org');
  for (const [label, u] of [['member', priv.member], ['creator', priv.creator], ['owner', priv.owner], ['admin', admin]] as const) {
    await expectOrg(priv, u.auth, label);
  }
});

test('200: a restricted user who is a member sees the private organization', async () => {
  const r = await actor(app, { restricted: true });
  const add = await app.client(priv.owner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: priv.readers.id, username: r.username } } });
  assert.is(add.response.status, 204);
  await expectOrg(priv, r.auth, 'restricted member');
});

test('200: the name is matched case-insensitively; the answer keeps its spelling', async () => {
  const owner = await actor(app);
  const org = await createOrg(app, owner, { username: `MiXeD${Date.now() % 100000}` });
  for (const name of [org.name.toLowerCase(), org.name.toUpperCase()]) {
    const res = await get(name);
    assert.is(res.response.status, 200, name);
    assert.is(res.data!.name, org.name);
    assert.is(res.data!.id, org.id);
  }
});

test('200: tokens with read:organization, write:organization or all', async () => {
  for (const scopes of [['read:organization'], ['write:organization'], ['all']]) {
    const token = await app.token(priv.member, scopes);
    await expectOrg(priv, token, scopes.join());
  }
});

test('404: an unknown organization, and a user that is not an organization', async () => {
  await expect404('no-such-org', undefined, 'unknown, anonymous');
  await expect404('no-such-org', admin.auth, 'unknown, admin');
  await expect404(pub.owner.username, admin.auth, 'a user name');
  await expect404(app.admin.username, pub.owner.auth, 'the admin user');
});

test('401: wrong credentials, even where anonymous callers are allowed', async () => {
  for (const auth of [`Basic ${Buffer.from(`${pub.owner.username}:nope-nope`).toString('base64')}`, `token ${'a'.repeat(40)}`]) {
    const res = await get(pub.org.name, auth);
    assert.is(res.response.status, 401, auth);
    assertSpec('orgGet', res);
    assert.type(messageOf(res.error), 'string');
  }
});

test('403: a token without read:organization (read:issue on a GET)', async () => {
  for (const scopes of [['read:issue'], ['write:repository', 'read:user']]) {
    const token = await app.token(pub.owner, scopes);
    const res = await get(pub.org.name, token);
    assert.is(res.response.status, 403, scopes.join());
    assertSpec('orgGet', res);
    assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [read:organization]', url: `${app.config.rootUrl}api/swagger` });
  }
});

test('422: a name holding a NUL character', async () => {
  const res = await fetch(`${app.url}/api/v1/orgs/a%00b`);
  assert.is(res.status, 422);
  const body = await res.json();
  assert.match(body.message, /\[org\]/);
  assertSpec('orgGet', { response: res, error: body });
});

test.run();
