import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
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
const del = (f: Fixture, id: number, auth: string | undefined) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', { params: { path: { ...f.repo.path, index: f.pr.number, id } } });
const get = (f: Fixture, id: number, auth: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', { params: { path: { ...f.repo.path, index: f.pr.number, id } } });

test('204: the author or a site administrator deletes a review (and its line comments); 403 for others, even the owner', async () => {
  const f = await pullFixture(app, r);
  const mine = await review(app, f, r.reader.auth, { event: 'COMMENT', body: 'x', comments: [{ path: 'a.txt', body: 'y', new_position: 1 }] });
  const denied = await del(f, mine.id, r.owner.auth);
  assert.is(denied.response.status, 403);
  assertSpec('repoDeletePullReview', denied);
  const ok = await del(f, mine.id, r.reader.auth);
  assert.is(ok.response.status, 204);
  assertSpec('repoDeletePullReview', ok);
  assert.is((await get(f, mine.id, r.reader.auth)).response.status, 404);
  const other = await review(app, f, r.owner.auth, { event: 'APPROVED' });
  assert.is((await del(f, other.id, r.admin.auth)).response.status, 204, 'a site administrator');
  assert.is((await del(f, other.id, r.admin.auth)).response.status, 404, 'gone');
});

test('401 anonymous, 404 another\'s pending review or a hidden repository, 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const pending = await review(app, f, r.reader.auth, {});
  assert.is((await del(f, pending.id, undefined)).response.status, 401);
  assert.is((await del(f, pending.id, r.writer.auth)).response.status, 404, 'invisible pending review');
  assert.is((await del(f, pending.id, r.outsider.auth)).response.status, 404);
  await setArchived(app, f.repo, r.owner);
  assert.is((await del(f, pending.id, r.reader.auth)).response.status, 423);
});

test.run();
