import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, roles, type Roles } from '../../helpers/gitFixtures.js';
import { pullFixture, review } from '../../helpers/pulls.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

type Fixture = Awaited<ReturnType<typeof pullFixture>>;
const list = (f: Fixture, auth: string | undefined, query: Record<string, number> = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews', { params: { path: { ...f.repo.path, index: f.pr.number }, query } });

test('200: reviews oldest first; a pending review only for its author and site administrators; pages', async () => {
  const f = await pullFixture(app, r);
  const approved = await review(app, f, r.owner.auth, { event: 'APPROVED' });
  const pending = await review(app, f, r.reader.auth, { body: 'draft' });
  const commented = await review(app, f, r.outsider.auth, { event: 'COMMENT', body: 'hm' });
  const ids = async (auth: string | undefined) => {
    const res = await list(f, auth);
    assert.is(res.response.status, 200);
    assertSpec('repoListPullReviews', res);
    return res.data!.map((x) => x.id);
  };
  assert.equal(await ids(r.reader.auth), [approved.id, pending.id, commented.id], 'the author sees their pending review');
  assert.equal(await ids(r.admin.auth), [approved.id, pending.id, commented.id], 'a site administrator too');
  assert.equal(await ids(r.writer.auth), [approved.id, commented.id], 'others do not');
  assert.equal(await ids(undefined), [approved.id, commented.id], 'nor anonymous callers of a public repository');
  const page = await list(f, r.writer.auth, { limit: 1, page: 2 });
  assert.equal([page.data!.map((x) => x.id), page.response.headers.get('x-total-count')], [[commented.id], '2']);
});

test('200: a review becomes stale when the head moves', async () => {
  const f = await pullFixture(app, r);
  await review(app, f, r.owner.auth, { event: 'APPROVED' });
  assert.is((await list(f, r.reader.auth)).data![0]!.stale, false);
  await disk.commit(f.dir, f.branch, { 'later.txt': 'x\n' });
  const res = await list(f, r.reader.auth);
  assert.is(res.data![0]!.stale, true);
});

test('404: hidden repository, no such pull', async () => {
  const f = await pullFixture(app, r, { priv: true });
  assert.is((await list(f, undefined)).response.status, 404);
  assert.is((await list(f, r.outsider.auth)).response.status, 404);
  assert.is((await list({ ...f, pr: { ...f.pr, number: 999 } }, r.reader.auth)).response.status, 404);
});

test.run();
