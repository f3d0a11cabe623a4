import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { actor, addTeamMember, adminActor, createOrg, linksOf, orgWorld, publicizeMember, type Actor, type OrgWorld } from '../../helpers/orgs.js';
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
  // One public member in each org: the one non-members may see.
  for (const w of [pub, limited, priv]) await publicizeMember(app, w.org.id, w.member.id);
});
test.after(async () => {
  await app.close();
});

const list = (org: string, auth?: string, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/orgs/{org}/members', { params: { path: { org }, query } });

const everyone = (w: OrgWorld) => [w.owner, w.member, w.creator].map((u) => u.username).sort();

async function expectLogins(w: OrgWorld, auth: string | undefined, expected: string[], label: string) {
  const res = await list(w.org.name, auth);
  assert.is(res.response.status, 200, label);
  assertSpec('orgListMembers', res);
  assert.equal(res.data!.map((u) => u.login), expected, label);
  assert.is(res.response.headers.get('x-total-count'), String(expected.length), `${label}: X-Total-Count`);
  return res.data!;
}

async function expect404(org: string, auth: string | undefined, label: string) {
  const res = await list(org, auth);
  assert.is(res.response.status, 404, label);
  assertSpec('orgListMembers', res);
  assert.is(await res.response.text(), '', label);
}

test('200: members and site admins see every member, by name', async () => {
  for (const w of [pub, limited, priv]) {
    for (const [label, u] of [['owner', w.owner], ['member', w.member], ['creator', w.creator], ['admin', admin]] as const) {
      await expectLogins(w, u.auth, everyone(w), `${w.org.visibility} ${label}`);
    }
  }
  await expectLogins(pub, pub.member.basic, everyone(pub), 'Basic');
});

test('200: the members are full User objects; e-mails shown as by GET /users/{username}', async () => {
  const byMember = await expectLogins(pub, pub.member.auth, everyone(pub), 'member');
  const self = byMember.find((u) => u.id === pub.member.id)!;
  assert.is(self.email, pub.member.email, 'one sees one\'s own e-mail');
  const other = byMember.find((u) => u.id === pub.owner.id)!;
  const single = await app.client(pub.member.auth).GET('/users/{username}', { params: { path: { username: pub.owner.username } } });
  assert.is(single.response.status, 200);
  assert.equal(other, single.data, 'the same User as GET /users/{username}');
  assert.is.not(other.email, pub.owner.email, 'another member\'s e-mail is hidden');

  const byAdmin = await expectLogins(pub, admin.auth, everyone(pub), 'admin');
  assert.is(byAdmin.find((u) => u.id === pub.owner.id)!.email, pub.owner.email, 'site admins see e-mails');
});

test('200: non-members see only the public members (anonymous, outsider, restricted)', async () => {
  await expectLogins(pub, undefined, [pub.member.username], 'anonymous on public');
  await expectLogins(pub, pub.outsider.auth, [pub.member.username], 'outsider on public');
  await expectLogins(pub, restricted.auth, [pub.member.username], 'restricted on public');
  await expectLogins(pub, limited.owner.auth, [pub.member.username], 'owner of another org');
  await expectLogins(limited, limited.outsider.auth, [limited.member.username], 'outsider on limited');
  const anon = await list(pub.org.name);
  assert.is(anon.data![0]!.email, `${pub.member.username.toLowerCase()}@${app.config.noReplyDomain}`, 'anonymous callers get the no-reply address');
});

test('200: an org with no public member lists nothing to outsiders', async () => {
  const owner = await actor(app);
  const org = await createOrg(app, owner);
  const res = await list(org.name);
  assert.is(res.response.status, 200);
  assertSpec('orgListMembers', res);
  assert.equal(res.data, []);
  assert.is(res.response.headers.get('x-total-count'), '0');
  assert.is(res.response.headers.get('link'), null);
});

test('404: invisible organizations — limited to anonymous and restricted users, private to non-members', async () => {
  await expect404(limited.org.name, undefined, 'anonymous on limited');
  await expect404(limited.org.name, restricted.auth, 'restricted on limited');
  await expect404(priv.org.name, undefined, 'anonymous on private');
  await expect404(priv.org.name, priv.outsider.auth, 'outsider on private');
  await expect404(priv.org.name, pub.owner.auth, 'owner of another org on private');
});

test('404: an unknown organization or a user name', async () => {
  await expect404('no-such-org', admin.auth, 'unknown');
  await expect404(pub.owner.username, admin.auth, 'a user');
});

test('200: pagination — limit, page, X-Total-Count and Link', async () => {
  const owner = await actor(app);
  const org = await createOrg(app, owner);
  const team = await app.client(owner.auth).GET('/orgs/{org}/teams', { params: { path: { org: org.name } } });
  const others = await Promise.all([actor(app), actor(app), actor(app), actor(app)]);
  for (const u of others) await addTeamMember(app, owner, team.data![0]!.id, u.username);
  const all = [owner, ...others].map((u) => u.username).sort();

  const first = await list(org.name, owner.auth, { limit: 2 });
  assert.is(first.response.status, 200);
  assertSpec('orgListMembers', first);
  assert.equal(first.data!.map((u) => u.login), all.slice(0, 2));
  assert.is(first.response.headers.get('x-total-count'), '5');
  assert.equal(linksOf(first.response.headers.get('link')), { next: { page: 2, limit: 2 }, last: { page: 3, limit: 2 } });

  const third = await list(org.name, owner.auth, { page: 3, limit: 2 });
  assert.equal(third.data!.map((u) => u.login), all.slice(4));
  assert.equal(linksOf(third.response.headers.get('link')), { first: { page: 1, limit: 2 }, prev: { page: 2, limit: 2 } });
  assert.match(third.response.headers.get('link')!, new RegExp(`^<${app.config.rootUrl}api/v1/orgs/${org.name}/members\\?`), 'absolute URLs');

  const beyond = await list(org.name, owner.auth, { page: 9, limit: 2 });
  assert.equal(beyond.data, []);
  assert.is(beyond.response.headers.get('x-total-count'), '5');

  const clamped = await list(org.name, owner.auth, { page: 0, limit: 0 });
  assert.equal(clamped.data!.map((u) => u.login), all, 'page 0 is page 1; limit 0 is the default');
});

test('200: tokens with read:organization', async () => {
  const token = await app.token(priv.member, ['read:organization']);
  await expectLogins(priv, token, everyone(priv), 'read:organization');
});

test('401: wrong credentials', async () => {
  for (const auth of [`Basic ${Buffer.from(`${pub.owner.username}:wrong-pass`).toString('base64')}`, `token ${'b'.repeat(40)}`]) {
    const res = await list(pub.org.name, auth);
    assert.is(res.response.status, 401, auth);
    assertSpec('orgListMembers', res);
  }
});

test('403: a token without read:organization (read:issue on a GET)', async () => {
  const token = await app.token(pub.owner, ['read:issue']);
  const res = await list(pub.org.name, token);
  assert.is(res.response.status, 403);
  assertSpec('orgListMembers', res);
  assert.equal(res.error, { message: 'token does not have at least one of required scope(s): [read:organization]', url: `${app.config.rootUrl}api/swagger` });
});

test('422: page or limit that are not integers', async () => {
  for (const q of ['page=abc', 'limit=x', 'page=1.5']) {
    const res = await fetch(`${app.url}/api/v1/orgs/${pub.org.name}/members?${q}`, { headers: { Authorization: pub.owner.auth } });
    assert.is(res.status, 422, q);
    const body = await res.json();
    assertSpec('orgListMembers', { response: res, error: body });
    assert.match(body.message, /\[(page|limit)\]/);
  }
});

test.run();
