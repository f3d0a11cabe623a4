// What Gitea's Go SDK (tea, Woodpecker, terraform-provider-gitea) and other clients send, over HTTP (#43):
// `null` for unset optional fields, the Go zero time, `""` for unset enums, `1`/`0` query booleans and
// empty query values. Each is read as Gitea reads it; a required field stays required.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GO_ZERO_TIME } from '../../src/api/goDecode.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, fresh, raw, type Actor } from '../helpers/repos.js';

let app: TestApp;
let alice: Actor;
let repo: string;
test.before(async () => {
  app = await startApp();
  alice = await actor(app);
  const name = fresh('go');
  const r = await raw(app, 'POST', '/user/repos', { authorization: alice.auth, body: JSON.stringify({ name, auto_init: true, description: 'seed', readme: null }) });
  assert.is(r.response.status, 201, r.text);
  repo = `${alice.username}/${name}`;
});
test.after(async () => {
  await app.close();
});

const post = (path: string, body: unknown, method = 'POST') => raw(app, method, path, { authorization: alice.auth, body: JSON.stringify(body) });
const get = (path: string) => raw(app, 'GET', path, { authorization: alice.auth });

test('POST /user/repos: null optional fields and "" enums are "not given"; a null name is still refused', async () => {
  const name = fresh('x');
  // What the SDK's CreateRepoOption encodes when only the name is set.
  const r = await post('/user/repos', {
    name, description: null, private: null, issue_labels: null, auto_init: null, template: null, gitignores: null,
    license: null, readme: null, default_branch: null, trust_model: '', object_format_name: '',
  });
  assert.is(r.response.status, 201, r.text);
  assert.is(r.body.description, '');
  assert.is(r.body.private, false);
  assert.is(r.body.default_branch, 'main');
  assert.is(r.body.object_format_name, 'sha1');

  const bad = await post('/user/repos', { name: null, description: 'x' });
  assert.is(bad.response.status, 422);
  assert.match(bad.body.message, /^\[name\]/);
  const none = await post('/user/repos', null);
  assert.is(none.response.status, 422, 'a null body is no request');
});

test('POST /orgs with "visibility": null and PATCH with "" visibility keep the default / current value', async () => {
  const username = fresh('org');
  const r = await post('/orgs', { username, visibility: null, full_name: null, description: null, website: null, location: null, repo_admin_change_team_access: null });
  assert.is(r.response.status, 201, r.text);
  assert.is(r.body.visibility, 'public');
  const e = await post(`/orgs/${username}`, { visibility: '', description: 'now described', full_name: null }, 'PATCH');
  assert.is(e.response.status, 200, e.text);
  assert.is(e.body.visibility, 'public');
  assert.is(e.body.description, 'now described');
});

test('GET /repos/search: booleans in strconv.ParseBool forms; an empty value is absent; other words are 422', async () => {
  const priv = fresh('hidden');
  assert.is((await post('/user/repos', { name: priv, private: true })).response.status, 201);
  const names = async (query: string) => {
    const r = await get(`/repos/search?q=${priv.slice(0, 8)}&${query}`);
    assert.is(r.response.status, 200, `${query}: ${r.text}`);
    return (r.body.data as Array<{ name: string }>).map((x) => x.name);
  };
  for (const yes of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(await names(`private=${yes}&exclusive=0`), [priv], `private=${yes}`);
  for (const no of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.equal(await names(`private=${no}`), [], `private=${no}`);
  assert.equal(await names('private=&exclusive='), [priv], 'empty values are absent (private repositories of the caller included)');
  assert.equal(await names('page=%2B1&limit=007'), [priv], 'integers as strconv.ParseInt reads them: a sign, leading zeros');
  assert.is((await get('/repos/search?q=x&limit=1e3')).response.status, 422, 'not 1000: Go reads no exponent');
  const bad = await get('/repos/search?q=x&private=yes');
  assert.is(bad.response.status, 422);
  assert.is(bad.body.message, '[private]: must be boolean');
  for (const word of ['constructor', '__proto__', 'toString']) {
    const odd = await get(`/repos/search?q=x&private=${word}`);
    assert.is(odd.response.status, 422, `${word}: ${odd.text}`);
  }
});

test('contents API: the zero time for dates.author/committer is "now"; git trees read recursive=1', async () => {
  const before = Date.now() - 60_000;
  const r = await post(`/repos/${repo}/contents/dir/sub/file.txt`, {
    content: Buffer.from('hi\n').toString('base64'), message: 'add', branch: null, new_branch: null, sha: null,
    author: { name: 'A', email: 'a@example.com' }, committer: null,
    dates: { author: GO_ZERO_TIME, committer: GO_ZERO_TIME }, signoff: null, from_path: null,
  });
  assert.is(r.response.status, 201, r.text);
  const commit = r.body.commit;
  for (const who of ['author', 'committer'] as const) {
    const at = Date.parse(commit[who].date);
    assert.ok(at >= before && at <= Date.now() + 60_000, `${who} date ${commit[who].date} is now`);
  }
  const sha = commit.sha as string;
  const flat = await get(`/repos/${repo}/git/trees/${sha}?recursive=0`);
  const deep = await get(`/repos/${repo}/git/trees/${sha}?recursive=1`);
  const empty = await get(`/repos/${repo}/git/trees/${sha}?recursive=`);
  for (const x of [flat, deep, empty]) assert.is(x.response.status, 200, x.text);
  const paths = (x: typeof flat) => (x.body.tree as Array<{ path: string }>).map((e) => e.path);
  assert.ok(paths(deep).includes('dir/sub/file.txt'), paths(deep).join());
  assert.not.ok(paths(flat).includes('dir/sub/file.txt'));
  assert.equal(paths(empty), paths(flat), 'recursive= is not given');
});

test('milestones: "" state and the zero due_on are "not given"', async () => {
  const r = await post(`/repos/${repo}/milestones`, { title: 'm1', description: null, state: '', due_on: GO_ZERO_TIME });
  assert.is(r.response.status, 201, r.text);
  assert.is(r.body.state, 'open');
  assert.is(r.body.due_on, null);
  const due = '2030-05-01T10:00:00Z';
  const set = await post(`/repos/${repo}/milestones/${r.body.id}`, { due_on: due }, 'PATCH');
  assert.is(set.response.status, 200, set.text);
  const e = await post(`/repos/${repo}/milestones/${r.body.id}`, { title: null, state: '', due_on: GO_ZERO_TIME, description: null }, 'PATCH');
  assert.is(e.response.status, 200, e.text);
  assert.is(e.body.title, 'm1');
  assert.is(e.body.state, 'open');
  assert.is(e.body.due_on, set.body.due_on, 'a zero due_on leaves the deadline alone (Gitea: IsZero)');
});

test('issues: the zero due_date removes the deadline on edit (Gitea EditIssue); type= on search is absent', async () => {
  const r = await post(`/repos/${repo}/issues`, { title: 'with deadline', due_date: '2031-01-02T03:04:05Z', milestone: null, assignees: null, labels: null, ref: null });
  assert.is(r.response.status, 201, r.text);
  assert.ok(r.body.due_date);
  const kept = await post(`/repos/${repo}/issues/${r.body.number}`, { title: null, body: null, due_date: null, unset_due_date: null }, 'PATCH');
  assert.is(kept.response.status, 201, kept.text);
  assert.is(kept.body.due_date, r.body.due_date, 'null is not given');
  const e = await post(`/repos/${repo}/issues/${r.body.number}`, { due_date: GO_ZERO_TIME }, 'PATCH');
  assert.is(e.response.status, 201, e.text);
  assert.is(e.body.due_date, null);

  const s = await get(`/repos/issues/search?type=&state=&q=deadline`);
  assert.is(s.response.status, 200, s.text);
  assert.ok((s.body as Array<{ number: number }>).some((i) => i.number === r.body.number));
});

test('the served spec says optional request properties accept null; required ones do not', async () => {
  const res = await fetch(`${app.url}/swagger.v1.json`);
  const doc = await res.json();
  const repoOpt = doc.components.schemas.CreateRepoOption;
  assert.equal(repoOpt.properties.description.type, ['string', 'null']);
  assert.equal(repoOpt.properties.name.type, 'string', 'required: no null');
  const ms = doc.components.schemas.CreateMilestoneOption.properties.state;
  assert.ok(ms.enum.includes(null));

});

test.run();
