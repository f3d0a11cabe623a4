import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newIssue, people, sharedRepo, type Issue, type People, type Repo } from '../../helpers/issues.js';
import { setSubscription } from '../../helpers/notifications.js';
import { linksOf } from '../../helpers/orgs.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;
let issue: Issue;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  issue = await newIssue(app, repo, p.owner, { title: 'list them' });
  for (const who of [p.outsider, p.reader, p.admin]) assert.is((await setSubscription(app, 'PUT', repo, issue.number, who.username, who.auth)).status, 201);
  // An opt-out is not a subscription.
  assert.is((await setSubscription(app, 'DELETE', repo, issue.number, p.owner.username, p.owner.auth)).status, 201);
});
test.after(async () => {
  await app.close();
});

/** `auth` null: anonymous. */
const list = (target: Repo, index: number, query: Record<string, unknown> = {}, auth: string | null = p.reader.auth) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/issues/{index}/subscriptions', { params: { path: { ...target.path, index }, query: query as never } });

test('200: the explicit subscribers, oldest first, paginated; anonymous callers on a public repository', async () => {
  const res = await list(repo, issue.number, {}, null);
  assert.is(res.response.status, 200);
  assertSpec('issueSubscriptions', res);
  assert.equal(res.data!.map((u) => u.login), [p.outsider.username, p.reader.username, p.admin.username]);
  assert.is(res.response.headers.get('x-total-count'), '3');
  const page = await list(repo, issue.number, { limit: 2, page: 2 });
  assert.equal(page.data!.map((u) => u.login), [p.admin.username]);
  assert.equal(linksOf(page.response.headers.get('link')), { first: { page: 1, limit: 2 }, prev: { page: 1, limit: 2 } });
});

test('401, 403, 404, 422', async () => {
  assert.is((await list(repo, issue.number, {}, `token ${'0'.repeat(40)}`)).response.status, 401);
  const scoped = await list(repo, issue.number, {}, await app.token(p.reader, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
  assert.is((await list(repo, 999)).response.status, 404);
  for (const auth of [null, p.outsider.auth]) assert.is((await list(priv, 1, {}, auth)).response.status, 404);
  assert.is((await list(repo, issue.number, { limit: 'x' })).response.status, 422);
});

test.run();
