import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertEmpty404, comparable, editIssue, editRepo, newComment, newIssue, people, sharedRepo, type Comment, type Issue, type People, type Repo,
} from '../../helpers/issues.js';
import { linksOf } from '../../helpers/orgs.js';
import { raw, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;
let issue: Issue;
let made: Comment[];

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  issue = await newIssue(app, pub, p.reader);
  made = [];
  made.push(await newComment(app, pub, issue.number, p.reader, 'first'));
  await editIssue(app, pub, issue.number, p.writer, { state: 'closed', title: 'renamed' });
  made.push(await newComment(app, pub, issue.number, p.outsider, 'second'));
  await editIssue(app, pub, issue.number, p.writer, { state: 'open' });
  made.push(await newComment(app, pub, issue.number, p.owner, 'third'));
});
test.after(async () => {
  await app.close();
});

const list = (repo: Repo, index: number, query: { page?: number; limit?: number; since?: string; before?: string } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...repo.path, index }, query } });

test('200: plain comments only (no close/reopen/title events), oldest first, the complete Comment', async () => {
  const r = await list(pub, issue.number, {}, p.reader.auth);
  assert.is(r.response.status, 200);
  assertSpec('issueGetComments', r);
  assert.equal(r.data!.map(comparable), made.map(comparable));
  assert.equal(r.data!.map((c) => [c.body, c.user.login]), [['first', p.reader.username], ['second', p.outsider.username], ['third', p.owner.username]]);
  const html = `${app.config.rootUrl}${pub.full_name}/issues/${issue.number}`;
  assert.is(r.data![0]!.html_url, `${html}#issuecomment-${made[0]!.id}`);
  assert.is(r.data![0]!.issue_url, html);
  assert.is(r.data![0]!.pull_request_url, '');
  assert.equal(r.data![0]!.assets, []);
  assert.is(r.response.headers.get('X-Total-Count'), '3');
  assert.is(r.response.headers.get('Link'), null, 'one page');
});

test('200: paginated with X-Total-Count and Link; since/before filter on the update time', async () => {
  const r = await list(pub, issue.number, { limit: 1, page: 2 }, p.owner.auth);
  assertSpec('issueGetComments', r);
  assert.equal(r.data!.map((c) => c.id), [made[1]!.id]);
  assert.is(r.response.headers.get('X-Total-Count'), '3');
  assert.equal(linksOf(r.response.headers.get('Link')), {
    next: { page: 3, limit: 1 }, last: { page: 3, limit: 1 }, first: { page: 1, limit: 1 }, prev: { page: 1, limit: 1 },
  });
  const later = new Date(Date.now() + 60_000).toISOString();
  assert.equal((await list(pub, issue.number, { since: later })).data, []);
  assert.is((await list(pub, issue.number, { before: later })).data!.length, 3);
});

test('200: every role that can read — anonymous and outsider on a public repository, members of a private one', async () => {
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['writer', p.writer.auth], ['site admin', p.admin.auth]] as const) {
    const r = await list(pub, issue.number, {}, auth);
    assert.is(r.response.status, 200, label);
    assert.is(r.data!.length, 3, label);
  }
  const secret = await newIssue(app, priv, p.owner);
  await newComment(app, priv, secret.number, p.reader, 'hidden');
  for (const [label, auth] of [['reader', p.reader.auth], ['owner', p.owner.auth], ['site admin', p.admin.auth]] as const) {
    const r = await list(priv, secret.number, {}, auth);
    assert.is(r.response.status, 200, label);
    assert.equal(r.data!.map((c) => c.body), ['hidden']);
  }
  for (const [label, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth]] as const) {
    const r = await list(priv, secret.number, {}, auth);
    assertEmpty404(r, label);
    assertSpec('issueGetComments', r);
  }
});

test('200: an issue without comments answers an empty list', async () => {
  const quiet = await newIssue(app, pub, p.owner);
  const r = await list(pub, quiet.number);
  assert.equal(r.data, []);
  assert.is(r.response.headers.get('X-Total-Count'), '0');
});

test('404: missing issue, issues unit disabled', async () => {
  assertEmpty404(await list(pub, 999_999, {}, p.owner.auth), 'missing');
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.owner);
  await newComment(app, repo, i.number, p.owner);
  await editRepo(app, repo, { has_issues: false });
  assertEmpty404(await list(repo, i.number, {}, p.owner.auth), 'unit disabled');
});

test('403: a token without an issue scope; 422: a bad since', async () => {
  const r = await list(pub, issue.number, {}, await app.token(p.reader, ['read:repository']));
  assert.is(r.response.status, 403);
  assertSpec('issueGetComments', r);
  assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
  const bad = await raw(app, 'GET', `/repos/${pub.full_name}/issues/${issue.number}/comments?since=never`);
  assert.is(bad.response.status, 422);
});

test.run();
