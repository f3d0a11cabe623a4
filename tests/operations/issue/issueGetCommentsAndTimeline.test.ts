import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editIssue, newComment, newIssue, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  pub = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

const timeline = (repo: Repo, index: number, auth?: string, query: { since?: string; before?: string; page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/{index}/timeline', { params: { path: { ...repo.path, index }, query } });

test('200: comments and events in order, as Gitea\'s timeline types with their fields', async () => {
  const i = await newIssue(app, pub, p.reader, { title: 'first' });
  const c = await newComment(app, pub, i.number, p.reader, 'hello');
  await editIssue(app, pub, i.number, p.writer, { title: 'second' });
  const label = await newLabel(app, pub, p.owner, { name: 'bug' });
  const added = await app.client(p.writer.auth).POST('/repos/{owner}/{repo}/issues/{index}/labels', { params: { path: { ...pub.path, index: i.number } }, body: { labels: [label.id] } });
  assert.is(added.response.status, 200);
  await editIssue(app, pub, i.number, p.writer, { state: 'closed' });
  await editIssue(app, pub, i.number, p.writer, { state: 'open' });
  const locked = await app.client(p.writer.auth).PUT('/repos/{owner}/{repo}/issues/{index}/lock', { params: { path: { ...pub.path, index: i.number } }, body: { lock_reason: 'Resolved' } });
  assert.is(locked.response.status, 204);

  const r = await timeline(pub, i.number);
  assert.is(r.response.status, 200);
  assertSpec('issueGetCommentsAndTimeline', r);
  const rows = r.data!;
  assert.equal(rows.map((x) => x.type), ['comment', 'change_title', 'label', 'close', 'reopen', 'lock']);
  assert.is(r.response.headers.get('x-total-count'), '6');
  const [comment, title, lbl, , , lock] = rows;
  assert.is(comment!.id, c.id);
  assert.is(comment!.body, 'hello');
  assert.is(comment!.user.login, p.reader.username);
  assert.ok(comment!.html_url.endsWith(`/issues/${i.number}#issuecomment-${c.id}`));
  assert.is(comment!.issue_url, i.html_url);
  assert.is(comment!.pull_request_url, '');
  assert.equal([title!.old_title, title!.new_title, title!.user.login], ['first', 'second', p.writer.username]);
  assert.is(lbl!.label?.id, label.id);
  assert.is(lbl!.body, '1', 'a label added');
  assert.is(lock!.body, 'Resolved');

  const page = await timeline(pub, i.number, undefined, { page: 2, limit: 4 });
  assert.equal(page.data!.map((x) => x.type), ['reopen', 'lock']);
  assert.is(page.response.headers.get('x-total-count'), '6');
  const none = await timeline(pub, i.number, undefined, { since: new Date(Date.now() + 3_600_000).toISOString() });
  assert.equal(none.data, []);
  const all = await timeline(pub, i.number, undefined, { before: new Date(Date.now() + 3_600_000).toISOString() });
  assert.is(all.data!.length, 6);
});

test('404: no such issue; a private repository for an outsider and anonymous; 422 bad since', async () => {
  assertEmpty404(await timeline(pub, 99_999));
  const priv = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, priv, p.owner);
  assertEmpty404(await timeline(priv, i.number, p.outsider.auth));
  assertEmpty404(await timeline(priv, i.number));
  assert.is((await timeline(priv, i.number, p.reader.auth)).response.status, 200);
  const bad = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/timeline', { params: { path: { ...priv.path, index: i.number }, query: { since: 'yesterday' } } });
  assert.is(bad.response.status, 422);
});

test.run();
