import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, fresh, orgRepo, orgWorld, raw, siteAdmin, swaggerOf, userRepo,
  type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let admin: Actor;
let alice: Actor;
let bob: Actor;
let w: OrgWorld;
const r: Record<string, Repository> = {};

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  [alice, bob] = await Promise.all([actor(app), actor(app)]);
  w = await orgWorld(app);
  // Names chosen so that name order differs from creation order.
  r.aliceZ = await userRepo(app, alice, { name: 'zeta', private: true });
  r.aliceA = await userRepo(app, alice, { name: 'Alpha' });
  r.bobPub = await userRepo(app, bob, { name: 'bob-public' });
  r.bobPriv = await userRepo(app, bob, { name: 'bob-private', private: true });
  r.orgPub = await orgRepo(app, w.name, w.owner, { name: 'org-public' });
  r.orgPriv = await orgRepo(app, w.name, w.owner, { name: 'org-private', private: true });
  r.byCreator = await orgRepo(app, w.name, w.creator, { name: 'made-by-creator', private: true });
  await addCollaborator(app, r.bobPriv, alice, 'write');
});
test.after(async () => {
  await app.close();
});

async function list(auth: string, query: { page?: number; limit?: number } = {}) {
  const res = await app.client(auth).GET('/user/repos', { params: { query } });
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('userCurrentListRepos', res);
  return { res, data: res.data!, names: res.data!.map((x) => x.full_name), total: Number(res.response.headers.get('x-total-count')), link: res.response.headers.get('link') };
}

const fullNames = (...keys: string[]) => keys.map((k) => r[k]!.full_name);

test('200: owned repositories and collaborations, private ones included, by name; not others\' public ones', async () => {
  const { data, names, total } = await list(alice.auth);
  assert.equal(names, fullNames('aliceA', 'bobPriv', 'aliceZ'), 'ordered by name');
  assert.is(total, 3);
  const byId = new Map(data.map((x) => [x.id, x]));
  assert.equal(byId.get(r.aliceZ!.id)!.permissions, { admin: true, push: true, pull: true });
  assert.equal(byId.get(r.bobPriv!.id)!.permissions, { admin: false, push: true, pull: true });
  assert.is(byId.get(r.aliceZ!.id)!.private, true);
  assert.is(byId.get(r.aliceA!.id)!.owner!.email, alice.email, 'the caller sees their own e-mail');
});

test('teams: the org owner and include-all teams reach every org repository; the creator their own; members in no team none', async () => {
  assert.equal((await list(w.owner.auth)).names, fullNames('byCreator', 'orgPriv', 'orgPub'), 'org owner (Owners team)');
  const reader = await list(w.reader.auth);
  assert.equal(reader.names, fullNames('byCreator', 'orgPriv', 'orgPub'), 'read team with all repositories');
  for (const repo of reader.data) assert.equal(repo.permissions, { admin: false, push: false, pull: true });
  const teamAdmin = await list(w.teamAdmin.auth);
  for (const repo of teamAdmin.data) assert.equal(repo.permissions, { admin: true, push: true, pull: true });
  assert.equal((await list(w.creator.auth)).names, fullNames('byCreator'), 'the creator, as admin collaborator');
  assert.equal((await list(w.member.auth)).names, [], 'a member in no team');
  assert.equal((await list(w.outsider.auth)).names, []);
});

test('a site admin lists only their own, not everything', async () => {
  const mine = await userRepo(app, admin, { name: fresh('admins') });
  assert.equal((await list(admin.auth)).names, [mine.full_name]);
});

test('pagination: X-Total-Count and Link; limit clamped to 50', async () => {
  const many = await actor(app);
  const made: string[] = [];
  for (const n of ['e', 'd', 'c', 'b', 'a']) made.push((await userRepo(app, many, { name: `p-${n}` })).full_name);
  const sorted = [...made].sort();
  const base = `${app.config.rootUrl}api/v1/user/repos`;
  const one = await list(many.auth, { limit: 2 });
  assert.equal(one.names, sorted.slice(0, 2));
  assert.is(one.total, 5);
  assert.is(one.link, `<${base}?limit=2&page=2>; rel="next", <${base}?limit=2&page=3>; rel="last"`);
  const two = await list(many.auth, { limit: 2, page: 2 });
  assert.equal(two.names, sorted.slice(2, 4));
  assert.is(two.link, `<${base}?limit=2&page=3>; rel="next", <${base}?limit=2&page=3>; rel="last", <${base}?limit=2&page=1>; rel="first", <${base}?limit=2&page=1>; rel="prev"`);
  const three = await list(many.auth, { limit: 2, page: 3 });
  assert.equal(three.names, sorted.slice(4));
  assert.equal((await list(many.auth, { page: 4, limit: 2 })).names, []);
  const all = await list(many.auth, { limit: 1000 });
  assert.equal(all.names, sorted);
  assert.is(all.link, null);
  assert.is(all.res.response.headers.get('access-control-expose-headers'), 'X-Total-Count, Link');
});

test('401: anonymous callers; 403: a token without read:repository', async () => {
  const anon = await app.client().GET('/user/repos');
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentListRepos', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  const wrong = await app.client(await app.token(alice, ['read:user', 'write:organization'])).GET('/user/repos');
  assert.is(wrong.response.status, 403);
  assertSpec('userCurrentListRepos', wrong);
  assert.equal(wrong.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  assert.equal((await list(await app.token(alice, ['read:repository']))).names, fullNames('aliceA', 'bobPriv', 'aliceZ'));
  assert.equal((await list(alice.basic)).names, fullNames('aliceA', 'bobPriv', 'aliceZ'), 'Basic works too');
});

test('Sudo: a site admin lists what the target user would', async () => {
  const res = await app.client(admin.auth).GET('/user/repos', { headers: { Sudo: bob.username } });
  assert.is(res.response.status, 200);
  assert.equal(res.data!.map((x) => x.full_name), fullNames('bobPriv', 'bobPub'));
});

test('422: non-numeric page or limit', async () => {
  for (const q of ['page=one', 'limit=x']) {
    const res = await raw(app, 'GET', `/user/repos?${q}`, { authorization: alice.auth });
    assert.is(res.response.status, 422, q);
    assertSpecAnswer('userCurrentListRepos', 422, res.body);
  }
});

test.run();
