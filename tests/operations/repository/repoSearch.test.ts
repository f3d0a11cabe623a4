import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { operations } from '../../../generated/openapi.js';
import { basic, startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, fresh, orgRepo, orgWorld, pathOf, raw, siteAdmin, swaggerOf, userRepo,
  type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Query = NonNullable<operations['repoSearch']['parameters']['query']>;

let app: TestApp;
let admin: Actor;
let alice: Actor;
let bob: Actor;
let outsider: Actor;
let restricted: Actor;
let w: OrgWorld;
let hiddenMember: Actor;
// Every repository of this file's fixture carries P in its name, so `q: P` finds exactly them.
const P = fresh('zq');
const r: Record<string, Repository> = {};

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  [alice, bob, outsider, restricted, hiddenMember] = await Promise.all([actor(app), actor(app), actor(app), actor(app, { restricted: true }), actor(app)]);
  w = await orgWorld(app);
  const hidden = await orgWorld(app, 'private', w);
  await app.services.teams.addMember(hidden.teams.readers, { user: null, isMember: true, isOwner: true }, (await app.services.users.byId(hiddenMember.id))!);
  const limited = await orgWorld(app, 'limited', w);
  r.a = await userRepo(app, alice, { name: `${P}-a-pub` });
  r.b = await userRepo(app, alice, { name: `${P}-b-priv`, private: true });
  r.c = await orgRepo(app, w.name, w.owner, { name: `${P}-c-orgpub` });
  r.d = await orgRepo(app, w.name, w.owner, { name: `${P}-d-orgpriv`, private: true });
  r.e = await orgRepo(app, hidden.name, hidden.owner, { name: `${P}-e-hiddenorg` });
  r.f = await orgRepo(app, limited.name, limited.owner, { name: `${P}-f-limitedorg` });
  r.g = await userRepo(app, bob, { name: `${P}-g-bobpriv`, private: true, template: true });
  r.h = await userRepo(app, bob, { name: `${P}-h_under` });
  await addCollaborator(app, r.g, alice, 'read');
  await addCollaborator(app, r.a, restricted, 'read');
  const archived = await app.client(bob.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(r.h) }, body: { archived: true } });
  assert.is(archived.response.status, 200);
});
test.after(async () => {
  await app.close();
});

async function search(query: Query, authorization?: string) {
  const res = await app.client(authorization).GET('/repos/search', { params: { query } });
  assert.is(res.response.status, 200, `${JSON.stringify(query)}: ${JSON.stringify(res.error)}`);
  assertSpec('repoSearch', res);
  assert.is(res.data!.ok, true);
  return { names: res.data!.data.map((x) => x.name), data: res.data!.data, total: Number(res.response.headers.get('x-total-count')), link: res.response.headers.get('link'), res };
}

const names = (...keys: string[]) => keys.map((k) => r[k]!.name);

test('200 {ok, data}: anonymous callers find public repositories of visible owners only, with their permissions', async () => {
  const { names: found, data, total, res } = await search({ q: P });
  assert.equal(found, names('a', 'c', 'h'));
  assert.is(total, 3);
  assert.is(res.response.headers.get('access-control-expose-headers'), 'X-Total-Count, Link');
  for (const repo of data) assert.equal(repo.permissions, { admin: false, push: false, pull: true });
  assert.is(data[0]!.full_name, `${alice.username}/${r.a!.name}`);
});

test('visibility per caller: outsiders, owners, collaborators, team members, org members, restricted users, site admins', async () => {
  assert.equal((await search({ q: P }, outsider.auth)).names, names('a', 'c', 'f', 'h'), 'outsider: + limited org');
  assert.equal((await search({ q: P }, alice.auth)).names, names('a', 'b', 'c', 'f', 'g', 'h'), 'alice: + her private one + collaboration');
  // The private and limited organizations reuse w's accounts in the same roles.
  assert.equal((await search({ q: P }, w.reader.auth)).names, names('a', 'c', 'd', 'e', 'f', 'h'), 'read team: + the org private one');
  assert.equal((await search({ q: P }, w.member.auth)).names, names('a', 'c', 'e', 'f', 'h'), 'member in no team: not the private one');
  assert.equal((await search({ q: P }, hiddenMember.auth)).names, names('a', 'c', 'e', 'f', 'h'), 'member of the private org');
  assert.equal((await search({ q: P }, restricted.auth)).names, names('a'), 'restricted: only what they are granted');
  const all = await search({ q: P }, admin.auth);
  assert.equal(all.names, names('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), 'site admin: everything');
  assert.is(all.total, 8);
  const mine = (await search({ q: P }, alice.auth)).data;
  assert.equal(mine.find((x) => x.id === r.b!.id)!.permissions, { admin: true, push: true, pull: true });
  assert.equal(mine.find((x) => x.id === r.g!.id)!.permissions, { admin: false, push: false, pull: true });
});

test('q: case-insensitive substring of the name, trimmed; % and _ are literal', async () => {
  assert.equal((await search({ q: `  ${P.toUpperCase()}-B-PRIV ` }, alice.auth)).names, names('b'));
  assert.equal((await search({ q: `h_UNDER` }, admin.auth)).names, names('h'));
  assert.equal((await search({ q: `${P}%` }, admin.auth)).names, [], '% matches only a literal %');
  assert.equal((await search({ q: `${P}-_` }, admin.auth)).names, [], '_ matches only a literal _');
  assert.equal((await search({ q: fresh('nothing') })).names, []);
});

test('q is comma-separated keywords matching names and topics; topic=true: exact topics only; includeDesc: descriptions too', async () => {
  const T = fresh('tq');
  const put = (repo: Repository, as: Actor, topics: string[]) =>
    app.client(as.auth).PUT('/repos/{owner}/{repo}/topics', { params: { path: pathOf(repo) }, body: { topics } });
  assert.is((await put(r.a!, alice, [`${T}-lang`, 'other'])).response.status, 204);
  assert.is((await put(r.c!, w.owner, [T])).response.status, 204);
  const desc = await app.client(bob.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(r.h!) }, body: { archived: false, description: `About ${T.toUpperCase()} things` } });
  assert.is(desc.response.status, 200);
  // A keyword that is part of a topic finds the repository as a part of its name would (Gitea's LIKE on topic names).
  assert.equal((await search({ q: T }, alice.auth)).names, names('a', 'c'));
  assert.equal((await search({ q: `${T},${P}-h`, includeDesc: false }, alice.auth)).names, names('a', 'c', 'h'), 'keywords are alternatives');
  // topic=true: only an exact topic; the name no longer matches.
  assert.equal((await search({ q: T, topic: true }, alice.auth)).names, names('c'));
  assert.equal((await search({ q: `${T}-LANG, nothing`, topic: true }, alice.auth)).names, names('a'));
  assert.equal((await search({ q: P, topic: true }, alice.auth)).names, []);
  // includeDesc: the description, case-insensitively.
  assert.equal((await search({ q: T, includeDesc: true }, alice.auth)).names, names('a', 'c', 'h'));
  const forms = await raw(app, 'GET', `/repos/search?q=${T}&topic=1&includeDesc=0`, { authorization: alice.auth });
  assert.equal((forms.body.data as Repository[]).map((x) => x.name), names('c'), 'Go-style booleans');
  const rearchive = await app.client(bob.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(r.h!) }, body: { archived: true } });
  assert.is(rearchive.response.status, 200);
});

test('uid: repositories the user owns or reaches; exclusive: owned only; collaborative: reached, not owned', async () => {
  assert.equal((await search({ q: P, uid: alice.id }, alice.auth)).names, names('a', 'b', 'g'));
  assert.equal((await search({ q: P, uid: alice.id, exclusive: true }, alice.auth)).names, names('a', 'b'));
  assert.equal((await search({ q: P, uid: alice.id, mode: 'collaborative' }, alice.auth)).names, names('g'));
  assert.equal((await search({ q: P, uid: alice.id })).names, names('a'), 'anonymous: only what it may see');
  assert.equal((await search({ q: P, uid: w.org.id }, admin.auth)).names, names('c', 'd'), 'an organization');
  assert.equal((await search({ q: P, uid: w.reader.id }, w.reader.auth)).names, names('c', 'd', 'e', 'f'), 'a team member reaches the org repositories');
  assert.equal((await search({ q: P, uid: w.member.id }, w.member.auth)).names, [], 'membership alone reaches nothing');
  assert.equal((await search({ q: P, uid: 999999 }, admin.auth)).names, []);
});

test('private, is_private, template, archived and mode filters', async () => {
  assert.equal((await search({ q: P, private: false }, alice.auth)).names, names('a', 'c', 'f', 'h'), 'private=false');
  assert.equal((await search({ q: P, is_private: true }, alice.auth)).names, names('b', 'g'));
  assert.equal((await search({ q: P, is_private: false }, alice.auth)).names, names('a', 'c', 'f', 'h'));
  assert.equal((await search({ q: P, template: true }, admin.auth)).names, names('g'));
  assert.equal((await search({ q: P, archived: true }, admin.auth)).names, names('h'));
  assert.equal((await search({ q: P, archived: false }, admin.auth)).names, names('a', 'b', 'c', 'd', 'e', 'f', 'g'));
  assert.equal((await search({ q: P, mode: 'source' })).names, names('a', 'c', 'h'));
  assert.equal((await search({ q: P, mode: 'fork' })).names, []);
  assert.equal((await search({ q: P, mode: 'mirror' })).names, []);
});

test('sort and order: alpha by default; order without sort is ignored; id and created', async () => {
  assert.equal((await search({ q: P, sort: 'alpha', order: 'desc' }, admin.auth)).names, names('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h').reverse());
  assert.equal((await search({ q: P, order: 'desc' }, admin.auth)).names, names('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), 'order alone is ignored');
  const byId = [...Object.values(r)].sort((x, y) => y.id - x.id).map((x) => x.name);
  assert.equal((await search({ q: P, sort: 'id', order: 'desc' }, admin.auth)).names, byId);
  assert.equal((await search({ q: P, sort: 'created' }, admin.auth)).names, [...byId].reverse());
});

test('pagination: X-Total-Count and an RFC 5988 Link header; limit is clamped to 50', async () => {
  const base = `${app.config.rootUrl}api/v1/repos/search`;
  const first = await search({ q: P, limit: 3 }, admin.auth);
  assert.equal(first.names, names('a', 'b', 'c'));
  assert.is(first.total, 8);
  assert.is(first.link, `<${base}?q=${P}&limit=3&page=2>; rel="next", <${base}?q=${P}&limit=3&page=3>; rel="last"`);
  const second = await search({ q: P, limit: 3, page: 2 }, admin.auth);
  assert.equal(second.names, names('d', 'e', 'f'));
  assert.is(second.link,
    `<${base}?q=${P}&limit=3&page=3>; rel="next", <${base}?q=${P}&limit=3&page=3>; rel="last", ` +
    `<${base}?q=${P}&limit=3&page=1>; rel="first", <${base}?q=${P}&limit=3&page=1>; rel="prev"`);
  const last = await search({ q: P, limit: 3, page: 3 }, admin.auth);
  assert.equal(last.names, names('g', 'h'));
  assert.match(last.link!, /rel="first"/);
  assert.not.match(last.link!, /rel="next"/);
  const beyond = await search({ q: P, limit: 3, page: 9 }, admin.auth);
  assert.equal(beyond.names, []);
  assert.is(beyond.total, 8);
  const clamped = await search({ q: P, limit: 500 }, admin.auth);
  assert.is(clamped.names.length, 8);
  assert.is(clamped.link, null, 'one page: no Link');
  const defaults = await search({ q: P, limit: 0, page: 0 }, admin.auth);
  assert.is(defaults.names.length, 8, 'limit 0 means the default page size');
});

test('tokens: read:repository suffices; other categories are 403; wrong credentials are 401', async () => {
  assert.equal((await search({ q: P }, await app.token(alice, ['read:repository']))).names, names('a', 'b', 'c', 'f', 'g', 'h'));
  const wrong = await app.client(await app.token(alice, ['read:user'])).GET('/repos/search', { params: { query: { q: P } } });
  assert.is(wrong.response.status, 403);
  assertSpec('repoSearch', wrong);
  assert.equal(wrong.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  for (const auth of [`token ${'c'.repeat(40)}`, basic(alice.username, 'nope-nope')]) {
    const res = await app.client(auth).GET('/repos/search', { params: { query: { q: P } } });
    assert.is(res.response.status, 401);
    assertSpec('repoSearch', res);
  }
});

test('422: unknown mode, sort or order, and non-numeric uid, page or limit', async () => {
  for (const query of ['mode=bogus', 'sort=name', 'order=sideways', 'uid=abc', 'page=x', 'limit=ten', 'archived=maybe']) {
    const res = await raw(app, 'GET', `/repos/search?${query}`);
    assert.is(res.response.status, 422, query);
    assertSpecAnswer('repoSearch', 422, res.body);
    assert.is(res.body.url, swaggerOf(app));
  }
});

test.run();
