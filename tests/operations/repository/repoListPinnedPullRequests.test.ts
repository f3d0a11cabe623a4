import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, newIssue, people, type People } from '../../helpers/issues.js';
import { movePin, pinned, pinnedPulls, repoWithPulls } from '../../helpers/pins.js';
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

test('200: the pinned pull requests in pin order, not the issues, anonymous on a public repository', async () => {
  const { repo, pulls } = await repoWithPulls(app, p, 3);
  const i = await newIssue(app, repo, p.owner);
  await pinned(app, repo, p.owner.auth, pulls[2]!, i.number, pulls[0]!);
  assert.is((await movePin(app, repo, pulls[0]!, 1, p.owner.auth)).response.status, 204);
  const r = await pinnedPulls(app, repo);
  assert.is(r.response.status, 200);
  assertSpec('repoListPinnedPullRequests', r);
  assert.equal(r.data!.map((x) => [x.number, x.pin_order, x.head.ref]), [[pulls[0], 1, 'b0'], [pulls[2], 2, 'b2']]);
});

test('404: a private repository to an outsider (200 to a reader), pull requests switched off', async () => {
  const { repo, pulls } = await repoWithPulls(app, p, 1);
  await pinned(app, repo, p.owner.auth, pulls[0]!);
  await editRepo(app, repo, { private: true });
  assertEmpty404(await pinnedPulls(app, repo, p.outsider.auth));
  assert.equal((await pinnedPulls(app, repo, p.reader.auth)).data!.map((x) => x.number), pulls);
  await editRepo(app, repo, { has_pull_requests: false });
  const off = await pinnedPulls(app, repo, p.owner.auth);
  assertEmpty404(off);
  assertSpec('repoListPinnedPullRequests', off);
});

test.run();
