// GET /orgs/{org}/activities/feeds: newest first, rows of repositories the caller cannot read never show,
// a private organisation is 404 to outsiders, `date` picks one day, paginated with X-Total-Count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { feed, opTypes } from '../../helpers/events.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';
import { addCollaborator, orgRepo, orgWorld, siteAdmin, type Actor, type OrgWorld, type Repository } from '../../helpers/repos.js';

let app: TestApp;
let pub: OrgWorld;
let priv: OrgWorld;
let admin: Actor;

const today = () => new Date().toISOString().slice(0, 10);

test.before(async () => {
  app = await startApp();
  pub = await orgWorld(app, 'public');
  priv = await orgWorld(app, 'private', pub);
  admin = await siteAdmin(app);
  for (const w of [pub, priv]) {
    await orgRepo(app, w.name, w.owner, { name: 'open' });
    await orgRepo(app, w.name, w.owner, { name: 'closed', private: true });
  }
});
test.after(async () => {
  await app?.close();
});

async function names(w: OrgWorld, auth?: string, query: Record<string, string> = {}) {
  const f = await feed(app, { org: w.name }, auth, query);
  assertSpecAnswer('orgListActivityFeeds', f.status, f.data);
  assert.is(f.status, 200, f.text);
  return { repos: f.data!.map((a) => a.repo.name), ops: opTypes(f.data), total: f.total, f };
}

test('200: anonymous callers and outsiders see the rows of public repositories only', async () => {
  for (const auth of [undefined, pub.outsider.auth]) {
    const r = await names(pub, auth);
    assert.equal(r.repos, ['open']);
    assert.equal(r.ops, ['create_repo']);
    assert.is(r.total, '1');
  }
});

test('200: a private repository shows to those who can read it (a team with it, the owners, site admins), not to other members', async () => {
  for (const who of [pub.owner, pub.reader, pub.teamAdmin, admin]) {
    assert.equal((await names(pub, who.auth)).repos, ['closed', 'open'], who.username);
  }
  assert.equal((await names(pub, pub.member.auth)).repos, ['open'], 'a member in no team cannot read the private repository');
  const row = (await names(pub, admin.auth)).f.data![0]!;
  assert.is(row.act_user.login, pub.owner.username);
  assert.is(row.user_id, pub.org.id, 'user_id is the organisation whose feed this is');
  assert.is(row.is_private, true);
});

test("200: a private repository's rows are for members: a collaborator from outside sees them only in the repository's feed (#32)", async () => {
  const closed = { full_name: `${pub.name}/closed` } as Repository;
  await addCollaborator(app, closed, pub.outsider, 'read');
  try {
    assert.equal((await names(pub, pub.outsider.auth)).repos, ['open']);
    const own = await feed(app, { owner: pub.name, repo: 'closed' }, pub.outsider.auth);
    assert.equal(opTypes(own.data), ['create_repo']);
  } finally {
    await app.client(admin.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { owner: pub.name, repo: 'closed', collaborator: pub.outsider.username } } });
  }
});

test("tokens: a private repository's rows need the repository scope (#32)", async () => {
  for (const [scopes, repos] of [[['read:organization'], ['open']], [['read:organization', 'read:repository'], ['closed', 'open']], [['all'], ['closed', 'open']]] as const) {
    const r = await names(pub, await app.token(pub.owner, [...scopes]));
    assert.equal(r.repos, [...repos], scopes.join(' '));
    assert.is(r.total, String(repos.length));
  }
  const f = await feed(app, { org: pub.name }, await app.token(pub.owner, ['read:repository']));
  assert.is(f.status, 403, 'the organization scope is needed at all');
});

test('404: a private organisation to anonymous callers and outsiders; its members see it', async () => {
  for (const auth of [undefined, priv.outsider.auth]) {
    const f = await feed(app, { org: priv.name }, auth);
    assert.is(f.status, 404);
    assert.is(f.text, '');
  }
  assert.equal((await names(priv, priv.member.auth)).repos, ['open']);
  assert.equal((await names(priv, priv.owner.auth)).repos, ['closed', 'open']);
});

test('404: an unknown organisation', async () => {
  const f = await feed(app, { org: 'no-such-org-here' }, admin.auth);
  assert.is(f.status, 404);
});

test('date: that UTC day only; not a date → 422', async () => {
  assert.is((await names(pub, admin.auth, { date: today() })).total, '2');
  assert.is((await names(pub, admin.auth, { date: '2001-02-03' })).total, '0');
  for (const date of ['2024-02-30', 'yesterday']) {
    const f = await feed(app, { org: pub.name }, admin.auth, { date });
    assert.is(f.status, 422, date);
    assertSpecAnswer('orgListActivityFeeds', f.status, JSON.parse(f.text));
  }
});

test('pagination: limit and page, X-Total-Count of every row, Link', async () => {
  const first = await names(pub, admin.auth, { limit: '1' });
  const second = await names(pub, admin.auth, { limit: '1', page: '2' });
  assert.equal([first.repos, second.repos], [['closed'], ['open']]);
  assert.is(first.total, '2');
  assert.ok(first.f.response.headers.get('link')?.includes('rel="next"'));
});

test('a deleted repository leaves the feed and its total; totals match the rows for every viewer', async () => {
  const before = await names(pub, admin.auth);
  const del = await app.client(pub.owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: { owner: pub.name, repo: 'closed' } } });
  assert.is(del.response.status, 204);
  const after = await names(pub, admin.auth);
  assert.equal(after.repos, ['open']);
  assert.is(Number(after.total), Number(before.total) - 1);
  for (const who of [undefined, pub.outsider, pub.member, pub.reader, pub.owner, admin]) {
    const r = await names(pub, who?.auth, { limit: '50' });
    assert.is(r.total, String(r.repos.length), who?.username ?? 'anonymous');
  }
});

test.run();
