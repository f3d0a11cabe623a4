// GET /users/{username}/activities/feeds: what the user did and what happened in the user's repositories;
// `only-performed-by` keeps the first; private repositories only for those who can read them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { feed, opTypes } from '../../helpers/events.js';
import { newComment, newIssue, type Repo } from '../../helpers/issues.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';
import { actor, addCollaborator, pathOf, siteAdmin, userRepo, type Actor } from '../../helpers/repos.js';

let app: TestApp;
let alice: Actor;
let bob: Actor;
let hidden: Actor;
let admin: Actor;

test.before(async () => {
  app = await startApp();
  [alice, bob, hidden, admin] = await Promise.all([actor(app), actor(app), actor(app, { visibility: 'private' }), siteAdmin(app)]);
  const open = await userRepo(app, alice, { name: 'open' });
  await userRepo(app, alice, { name: 'closed', private: true });
  const repo: Repo = { ...open, path: pathOf(open) };
  const issue = await newIssue(app, repo, alice, { title: 'hello' });
  await newComment(app, repo, issue.number, bob, 'hi alice');
  await userRepo(app, hidden, { name: 'mine' });
});
test.after(async () => {
  await app?.close();
});

async function ops(username: string, auth?: string, query: Record<string, string> = {}) {
  const f = await feed(app, { username }, auth, query);
  assertSpecAnswer('userListActivityFeeds', f.status, f.data ?? (f.text ? JSON.parse(f.text) : undefined));
  assert.is(f.status, 200, f.text);
  return { ops: opTypes(f.data), actors: f.data!.map((a) => a.act_user.login), total: f.total };
}

test("200: the user's actions and what others did in the user's repositories, newest first", async () => {
  const r = await ops(alice.username);
  assert.equal(r.ops, ['comment_issue', 'create_issue', 'create_repo']);
  assert.equal(r.actors, [bob.username, alice.username, alice.username]);
  assert.is(r.total, '3');
});

test('only-performed-by=true: the actions of the user alone', async () => {
  assert.equal((await ops(alice.username, undefined, { 'only-performed-by': 'true' })).ops, ['create_issue', 'create_repo']);
  assert.equal((await ops(bob.username)).ops, ['comment_issue'], "bob's comment in alice's repository is in bob's feed");
});

test('private repositories: the user and site admins see their rows, others do not', async () => {
  for (const who of [alice, admin]) assert.equal((await ops(alice.username, who.auth)).ops, ['comment_issue', 'create_issue', 'create_repo', 'create_repo'], who.username);
  assert.equal((await ops(alice.username, bob.auth)).ops.length, 3);
});

test("private repositories' rows show only in the user's own feed: not to another user who can read the repository (#32)", async () => {
  // alice works in carol's private repository; carol (its owner) and bob (a reader of it) read alice's feed.
  const carol = await actor(app);
  const theirs = await userRepo(app, carol, { private: true });
  await addCollaborator(app, theirs, alice, 'write');
  await addCollaborator(app, theirs, bob, 'read');
  await newIssue(app, { ...theirs, path: pathOf(theirs) }, alice, { title: 'in carol\'s private repository' });
  try {
    const mine = await ops(alice.username, alice.auth);
    assert.equal(mine.ops.slice(0, 1), ['create_issue'], 'alice sees her own action in a private repository she can read');
    for (const who of [carol, bob]) {
      const r = await feed(app, { username: alice.username }, who.auth, { limit: '50' });
      assert.equal(r.data!.filter((a) => a.repo.private), [], `${who.username} sees none of alice's private activity`);
      assert.is(r.total, String(r.data!.length));
    }
    const admins = await feed(app, { username: alice.username }, admin.auth, { limit: '50' });
    assert.ok(admins.data!.some((a) => a.repo.full_name === theirs.full_name), 'a site administrator does');
  } finally {
    await app.client(carol.auth).DELETE('/repos/{owner}/{repo}', { params: { path: pathOf(theirs) } });
  }
});

test('tokens: private repositories\' rows need the repository scope; read:user alone sees public rows only (#32)', async () => {
  const expect = async (scopes: string[], want: string[]) => {
    const r = await ops(alice.username, await app.token(alice, scopes));
    assert.equal(r.ops, want, scopes.join(' '));
    assert.is(r.total, String(want.length), `X-Total-Count for ${scopes.join(' ')}`);
  };
  await expect(['read:user'], ['comment_issue', 'create_issue', 'create_repo']);
  await expect(['write:user', 'read:issue'], ['comment_issue', 'create_issue', 'create_repo']);
  await expect(['read:user', 'read:repository'], ['comment_issue', 'create_issue', 'create_repo', 'create_repo']);
  await expect(['all'], ['comment_issue', 'create_issue', 'create_repo', 'create_repo']);
  const r = await feed(app, { username: alice.username }, await app.token(alice, ['read:repository']));
  assert.is(r.status, 403, 'the user scope is needed at all');
});

test('X-Total-Count is the number of rows the caller may see: for every viewer, with and without only-performed-by', async () => {
  for (const who of [undefined, alice, bob, admin]) {
    for (const query of [{}, { 'only-performed-by': 'true' }] as Array<Record<string, string>>) {
      for (const username of [alice.username, bob.username]) {
        const r = await ops(username, who?.auth, { ...query, limit: '50' });
        assert.is(r.total, String(r.ops.length), `${username}'s feed to ${who?.username ?? 'anonymous'} ${JSON.stringify(query)}`);
      }
    }
  }
  assert.is((await ops(alice.username, alice.auth)).total, '4', 'the private repository counts for its owner');
});

test('404: an unknown user, and a private user to anonymous callers and other users', async () => {
  for (const [name, auth] of [['nobody-by-this-name', admin.auth], [hidden.username, undefined], [hidden.username, bob.auth]] as const) {
    const f = await feed(app, { username: name }, auth);
    assert.is(f.status, 404, `${name} ${auth ? 'signed in' : 'anonymous'}`);
    assert.is(f.text, '');
  }
  assert.equal((await ops(hidden.username, hidden.auth)).ops, ['create_repo']);
});

test('422: a date that is not one', async () => {
  const f = await feed(app, { username: alice.username }, undefined, { date: '2025-13-01' });
  assert.is(f.status, 422);
});

test('the actor must be visible to the caller: a private account\'s actions only to itself and site admins, a limited one\'s to signed-in callers (#32)', async () => {
  const limited = await actor(app, { visibility: 'limited' });
  const place = await userRepo(app, bob);
  const issue = await newIssue(app, { ...place, path: pathOf(place) }, bob, { title: 'visitors' });
  await newComment(app, { ...place, path: pathOf(place) }, issue.number, hidden, 'from a private account');
  await newComment(app, { ...place, path: pathOf(place) }, issue.number, limited, 'from a limited account');
  const seen = async (auth?: string) => {
    const r = await feed(app, { username: bob.username }, auth, { limit: '50' });
    assert.is(r.status, 200, r.text);
    assert.is(r.total, String(r.data!.length), 'X-Total-Count counts the same rows');
    return r.data!.filter((a) => a.op_type === 'comment_issue' && a.repo.id === place.id).map((a) => a.act_user.login).sort();
  };
  assert.equal(await seen(), [], 'anonymous: neither');
  assert.equal(await seen(alice.auth), [limited.username], 'another signed-in user: the limited account');
  assert.equal(await seen(hidden.auth), [hidden.username, limited.username].sort(), 'the private account sees its own');
  assert.equal(await seen(admin.auth), [hidden.username, limited.username].sort(), 'site admins see all');
});

test.run();
