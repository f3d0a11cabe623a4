import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, newIssue, people, sharedRepo, type People } from '../../helpers/issues.js';
import { movePin, pinned, pinnedNumbers } from '../../helpers/pins.js';
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

test('204: up, down, past the end (= last); an unpinned issue stays unpinned', async () => {
  const repo = await sharedRepo(app, p);
  const [a, b, c, d] = [await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner)];
  await pinned(app, repo, p.owner.auth, a.number, b.number, c.number);
  const order = async () => (await pinnedNumbers(app, repo)).map(([n, at], k) => (assert.is(at, k + 1), n));
  const r = await movePin(app, repo, c.number, 1, p.owner.auth);
  assert.is(r.response.status, 204);
  assertSpec('moveIssuePin', r);
  assert.equal(await order(), [c.number, a.number, b.number]);
  assert.is((await movePin(app, repo, c.number, 99, p.owner.auth)).response.status, 204);
  assert.equal(await order(), [a.number, b.number, c.number]);
  assert.is((await movePin(app, repo, a.number, 2, p.owner.auth)).response.status, 204);
  assert.equal(await order(), [b.number, a.number, c.number]);
  assert.is((await movePin(app, repo, a.number, 2, p.owner.auth)).response.status, 204, 'where it is');
  assert.equal(await order(), [b.number, a.number, c.number]);
  assert.is((await movePin(app, repo, d.number, 1, p.owner.auth)).response.status, 204);
  assert.equal(await order(), [b.number, a.number, c.number]);
});

test('422: a position below 1; 403: a writer; 401; 404; 423', async () => {
  const repo = await sharedRepo(app, p, { private: true });
  const [a, b] = [await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner)];
  await pinned(app, repo, p.owner.auth, a.number, b.number);
  for (const at of [0, -1]) {
    const r = await movePin(app, repo, b.number, at, p.owner.auth);
    assert.is(r.response.status, 422, String(at));
    assertSpec('moveIssuePin', r);
  }
  const w = await movePin(app, repo, b.number, 1, p.writer.auth);
  assert.is(w.response.status, 403);
  assertSpec('moveIssuePin', w);
  assert.is((await movePin(app, repo, b.number, 1)).response.status, 401);
  assertEmpty404(await movePin(app, repo, b.number, 1, p.outsider.auth));
  assertEmpty404(await movePin(app, repo, 99_999, 1, p.owner.auth));
  await editRepo(app, repo, { archived: true });
  const r = await movePin(app, repo, b.number, 1, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('moveIssuePin', r);
  assert.equal(await pinnedNumbers(app, repo, p.owner.auth), [[a.number, 1], [b.number, 2]]);
});

test.run();
