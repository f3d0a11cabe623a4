import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, newIssue, people, sharedRepo, type People } from '../../helpers/issues.js';
import { newPinAllowed, pinned, unpin } from '../../helpers/pins.js';
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

test('200: true until three issues are pinned, true again after an unpin; pull requests apart', async () => {
  const repo = await sharedRepo(app, p);
  const r = await newPinAllowed(app, repo);
  assert.is(r.response.status, 200);
  assertSpec('repoNewPinAllowed', r);
  assert.equal(r.data, { issues: true, pull_requests: true });
  const is = [await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner)];
  await pinned(app, repo, p.owner.auth, is[0]!.number, is[1]!.number);
  assert.equal((await newPinAllowed(app, repo)).data, { issues: true, pull_requests: true }, 'two');
  await pinned(app, repo, p.owner.auth, is[2]!.number);
  assert.equal((await newPinAllowed(app, repo, p.reader.auth)).data, { issues: false, pull_requests: true }, 'three');
  assert.is((await unpin(app, repo, is[1]!.number, p.owner.auth)).response.status, 204);
  assert.equal((await newPinAllowed(app, repo)).data, { issues: true, pull_requests: true }, 'after an unpin');
});

test('404: a private repository to an outsider and to anonymous callers', async () => {
  const repo = await sharedRepo(app, p, { private: true });
  const r = await newPinAllowed(app, repo, p.outsider.auth);
  assertEmpty404(r);
  assertSpec('repoNewPinAllowed', r);
  assertEmpty404(await newPinAllowed(app, repo));
  assert.is((await newPinAllowed(app, repo, p.reader.auth)).response.status, 200);
});

test.run();
