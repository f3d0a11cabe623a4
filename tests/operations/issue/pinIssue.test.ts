import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, eventComments, getIssue, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { newPinAllowed, pin, pinned, pinnedNumbers, pinnedPulls, repoWithPulls } from '../../helpers/pins.js';
import { actor, addCollaborator } from '../../helpers/repos.js';
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

test('204: the owner pins at the end; pin_order; a pin event, once; pinning again changes nothing', async () => {
  const repo = await sharedRepo(app, p);
  const [a, b] = [await newIssue(app, repo, p.reader), await newIssue(app, repo, p.reader)];
  const r = await pin(app, repo, b.number, p.owner.auth);
  assert.is(r.response.status, 204);
  assertSpec('pinIssue', r);
  await pinned(app, repo, p.owner.auth, a.number, b.number);
  assert.equal(await pinnedNumbers(app, repo), [[b.number, 1], [a.number, 2]]);
  assert.is((await getIssue(app, repo, b.number)).pin_order, 1);
  assert.is((await eventComments(app, b.id, 'pin')).length, 1);
  const timeline = await app.client().GET('/repos/{owner}/{repo}/issues/{index}/timeline', { params: { path: { ...repo.path, index: b.number } } });
  assert.equal(timeline.data!.map((e) => e.type), ['pin']);
});

test('204: an admin collaborator and the site admin may pin', async () => {
  const repo = await sharedRepo(app, p);
  const boss = await actor(app);
  await addCollaborator(app, repo, boss, 'admin');
  const [a, b] = [await newIssue(app, repo, p.owner), await newIssue(app, repo, p.owner)];
  await pinned(app, repo, boss.auth, a.number);
  await pinned(app, repo, p.admin.auth, b.number);
  assert.equal(await pinnedNumbers(app, repo), [[a.number, 1], [b.number, 2]]);
});

test('400: a fourth issue; pull requests are counted apart (and pinned the same way)', async () => {
  const { repo, pulls } = await repoWithPulls(app, p, 1);
  const is = [];
  for (let i = 0; i < 4; i++) is.push(await newIssue(app, repo, p.owner));
  await pinned(app, repo, p.owner.auth, is[0]!.number, is[1]!.number, is[2]!.number);
  const r = await pin(app, repo, is[3]!.number, p.owner.auth);
  assert.is(r.response.status, 400);
  assertSpec('pinIssue', r);
  assert.is((await getIssue(app, repo, is[3]!.number)).pin_order, 0);
  assert.is((await eventComments(app, is[3]!.id, 'pin')).length, 0);
  assert.equal((await newPinAllowed(app, repo)).data, { issues: false, pull_requests: true });
  await pinned(app, repo, p.owner.auth, pulls[0]!);
  assert.equal((await pinnedPulls(app, repo)).data!.map((x) => [x.number, x.pin_order]), [[pulls[0], 1]]);
  assert.is((await pinnedNumbers(app, repo)).length, 3);
});

test('403: a writer, a reader, an outsider (public repository); 401 without a token', async () => {
  const repo = await sharedRepo(app, p);
  const i = await newIssue(app, repo, p.writer);
  for (const as of [p.writer, p.reader, p.outsider]) {
    const r = await pin(app, repo, i.number, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('pinIssue', r);
  }
  assert.is((await pin(app, repo, i.number)).response.status, 401);
  assert.is((await getIssue(app, repo, i.number)).pin_order, 0);
});

test('404: no such issue, a private repository to an outsider; 423: archived', async () => {
  const repo: Repo = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, repo, p.owner);
  assertEmpty404(await pin(app, repo, 99_999, p.owner.auth));
  assertEmpty404(await pin(app, repo, i.number, p.outsider.auth));
  await editRepo(app, repo, { archived: true });
  const r = await pin(app, repo, i.number, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('pinIssue', r);
});

test.run();
