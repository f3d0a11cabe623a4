import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, eventComments, newIssue, people, sharedRepo, type People } from '../../helpers/issues.js';
import { pinned, pinnedNumbers, unpin } from '../../helpers/pins.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

test('204: unpinning moves those after it up; an unpin event, once; unpinning again changes nothing', async () => {
  const repo = await sharedRepo(app, p);
  const [a, b, c] = [await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner)];
  await pinned(app, repo, p.owner.auth, a.number, b.number, c.number);
  const r = await unpin(app, repo, a.number, p.owner.auth);
  assert.is(r.response.status, 204);
  assertSpec('unpinIssue', r);
  assert.equal(await pinnedNumbers(app, repo), [[b.number, 1], [c.number, 2]]);
  assert.is((await unpin(app, repo, a.number, p.owner.auth)).response.status, 204, 'again');
  assert.is((await eventComments(app, a.id, 'unpin')).length, 1);
  await pinned(app, repo, p.owner.auth, a.number);
  assert.equal(await pinnedNumbers(app, repo), [[b.number, 1], [c.number, 2], [a.number, 3]], 'pinned again: at the end');
});

test('deleting a pinned issue moves those after it up', async () => {
  const repo = await sharedRepo(app, p);
  const [a, b] = [await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner)];
  await pinned(app, repo, p.owner.auth, a.number, b.number);
  const d = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index: a.number } } });
  assert.is(d.response.status, 204);
  assert.equal(await pinnedNumbers(app, repo), [[b.number, 1]]);
});

test('403: a writer, a reader; 401; 404; 423', async () => {
  const repo = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, repo, p.owner);
  await pinned(app, repo, p.owner.auth, i.number);
  for (const as of [p.writer, p.reader]) {
    const r = await unpin(app, repo, i.number, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('unpinIssue', r);
  }
  assert.is((await unpin(app, repo, i.number)).response.status, 401);
  assertEmpty404(await unpin(app, repo, i.number, p.outsider.auth));
  assertEmpty404(await unpin(app, repo, 99_999, p.owner.auth));
  await editRepo(app, repo, { archived: true });
  const r = await unpin(app, repo, i.number, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('unpinIssue', r);
  assert.equal(await pinnedNumbers(app, repo, p.reader.auth), [[i.number, 1]]);
});

test.run();
