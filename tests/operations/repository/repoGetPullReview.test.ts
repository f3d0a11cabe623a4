import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, type Roles } from '../../helpers/gitFixtures.js';
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
const get = (f: Fixture, id: number, auth: string | undefined, index = f.pr.number) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', { params: { path: { ...f.repo.path, index, id } } });

test('200: a submitted review for anyone who can read; a pending one for its author only', async () => {
  const f = await pullFixture(app, r);
  const approved = await review(app, f, r.owner.auth, { event: 'APPROVED', body: 'ok' });
  const res = await get(f, approved.id, r.owner.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetPullReview', res);
  assert.equal(res.data, approved, 'as created (seen by the same user)');
  const anonymous = await get(f, approved.id, undefined);
  assert.equal([anonymous.response.status, anonymous.data?.state], [200, 'APPROVED'], 'anonymous callers of a public repository');
  const pending = await review(app, f, r.reader.auth, { body: 'thinking' });
  assert.is((await get(f, pending.id, r.reader.auth)).data?.state, 'PENDING');
  assert.is((await get(f, pending.id, r.writer.auth)).response.status, 404, 'another user\'s pending review');
  assert.is((await get(f, pending.id, r.admin.auth)).response.status, 200, 'a site administrator');
});

test('404: a review of another pull request, no such review, a hidden repository', async () => {
  const f = await pullFixture(app, r);
  const g = await pullFixture(app, r, { priv: true });
  const other = await review(app, g, r.owner.auth, { event: 'APPROVED' });
  assert.is((await get(f, other.id, r.reader.auth)).response.status, 404, 'not this pull request\'s');
  assert.is((await get(f, 999999, r.reader.auth)).response.status, 404);
  assert.is((await get(g, other.id, r.outsider.auth)).response.status, 404);
  assert.is((await get(g, other.id, r.reader.auth)).response.status, 200);
});

test.run();
