// GET /teams/{id}/activities/feeds: the actions in the repositories the team reaches, newest first, to callers
// who may see the team; private repositories' rows only to members who can read them, with the repository scope.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { feed, opTypes } from '../../helpers/events.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';
import { orgRepo, orgWorld, siteAdmin, type Actor, type OrgWorld } from '../../helpers/repos.js';

let app: TestApp;
let pub: OrgWorld;
let priv: OrgWorld;
let admin: Actor;
/** A team of `pub` given only the repository `given`, with `pub.creator` in it. */
let some: number;

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
  await orgRepo(app, pub.name, pub.owner, { name: 'given' });
  some = pub.teams.creators.id;
  const r = await app.client(pub.owner.auth).PUT('/teams/{id}/repos/{org}/{repo}', { params: { path: { id: some, org: pub.name, repo: 'given' } } });
  assert.is(r.response.status, 204);
});
test.after(async () => {
  await app?.close();
});

/** Checks a refusal's body against the spec. */
const refusal = (f: { status: number; text: string }) => assertSpecAnswer('orgListTeamActivityFeeds', f.status, f.text ? JSON.parse(f.text) : undefined);

async function repos(team: number, auth?: string, query: Record<string, string> = {}) {
  const f = await feed(app, { team }, auth, query);
  assertSpecAnswer('orgListTeamActivityFeeds', f.status, f.data);
  assert.is(f.status, 200, f.text);
  return { repos: f.data!.map((a) => a.repo.name), total: f.total, f };
}

test('200: a team with every repository shows the rows of all its organization\'s repositories, newest first', async () => {
  for (const who of [pub.owner, pub.reader, admin]) {
    const r = await repos(pub.teams.readers.id, who.auth);
    assert.equal(r.repos, ['given', 'closed', 'open'], who.username);
    assert.equal(opTypes(r.f.data), ['create_repo', 'create_repo', 'create_repo']);
    assert.is(r.total, '3');
  }
});

test('200: a team given some repositories shows only theirs', async () => {
  for (const who of [pub.owner, pub.creator]) {
    const r = await repos(some, who.auth);
    assert.equal(r.repos, ['given'], who.username);
    assert.is(r.total, '1');
  }
});

test("tokens: a private repository's rows need the repository scope", async () => {
  for (const [scopes, list] of [[['read:organization'], ['given', 'open']], [['read:organization', 'read:repository'], ['given', 'closed', 'open']]] as const) {
    const r = await repos(pub.teams.readers.id, await app.token(pub.owner, [...scopes]));
    assert.equal(r.repos, [...list], scopes.join(' '));
    assert.is(r.total, String(list.length));
  }
  const f = await feed(app, { team: pub.teams.readers.id }, await app.token(pub.owner, ['read:repository']));
  assert.is(f.status, 403, 'the organization scope is needed at all');
  refusal(f);
});

test('date: one day only, pages with X-Total-Count; an unparsable date is 422', async () => {
  assert.equal((await repos(pub.teams.readers.id, pub.owner.auth, { date: today() })).repos, ['given', 'closed', 'open']);
  const none = await repos(pub.teams.readers.id, pub.owner.auth, { date: '2001-02-03' });
  assert.equal([none.repos, none.total], [[], '0']);
  const page = await repos(pub.teams.readers.id, pub.owner.auth, { limit: '1', page: '2' });
  assert.equal([page.repos, page.total], [['closed'], '3']);
  assert.ok(page.f.response.headers.get('link')?.includes('rel="next"'));
  const bad = await feed(app, { team: pub.teams.readers.id }, pub.owner.auth, { date: 'yesterday' });
  assert.is(bad.status, 422);
  refusal(bad);
});

test('404: an unknown team, a team the caller may not see; 401: anonymous', async () => {
  for (const [team, auth, label] of [[999_999, pub.owner.auth, 'unknown'], [priv.teams.readers.id, pub.outsider.auth, 'private org'], [some, pub.outsider.auth, 'a private team, to an outsider'], [some, pub.member.auth, 'a private team, to a member not in it']] as const) {
    const f = await feed(app, { team }, auth);
    assert.is(f.status, 404, label);
    refusal(f);
  }
  const anon = await feed(app, { team: pub.teams.readers.id });
  assert.is(anon.status, 401);
  refusal(anon);
});

test.run();
