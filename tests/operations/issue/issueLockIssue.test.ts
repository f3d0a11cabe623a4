import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, eventComments, getIssue, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
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

const lock = (repo: Repo, index: number, auth?: string, lock_reason?: string) =>
  app.client(auth).PUT('/repos/{owner}/{repo}/issues/{index}/lock', { params: { path: { ...repo.path, index } }, body: { lock_reason } });
const comment = (repo: Repo, index: number, auth: string) =>
  app.client(auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...repo.path, index } }, body: { body: 'hi' } });

test('204: a writer locks; is_locked; a lock event with the reason, once; then a reader may not comment, a writer may', async () => {
  const i = await newIssue(app, pub, p.reader);
  const r = await lock(pub, i.number, p.writer.auth, 'Too heated');
  assert.is(r.response.status, 204);
  assertSpec('issueLockIssue', r);
  assert.is((await getIssue(app, pub, i.number)).is_locked, true);
  assert.is((await lock(pub, i.number, p.owner.auth)).response.status, 204, 'again');
  const events = await eventComments(app, i.id, 'lock');
  assert.is(events.length, 1);
  assert.is(events[0]!.body, 'Too heated');
  const refused = await comment(pub, i.number, p.reader.auth);
  assert.is(refused.response.status, 403, 'a reader on a locked issue');
  assert.is((await comment(pub, i.number, p.writer.auth)).response.status, 201);
});

test('403: a reader (even the poster), an outsider', async () => {
  const i = await newIssue(app, pub, p.reader);
  for (const as of [p.reader, p.outsider]) {
    const r = await lock(pub, i.number, as.auth);
    assert.is(r.response.status, 403, as.username);
    assertSpec('issueLockIssue', r);
  }
  assert.is((await getIssue(app, pub, i.number)).is_locked, false);
});

test('401, 404, 423', async () => {
  const i = await newIssue(app, pub, p.owner);
  assert.is((await lock(pub, i.number)).response.status, 401);
  assertEmpty404(await lock(pub, 99_999, p.owner.auth));
  const priv = await sharedRepo(app, p, { private: true });
  const pi = await newIssue(app, priv, p.owner);
  assertEmpty404(await lock(priv, pi.number, p.outsider.auth));
  await editRepo(app, priv, { archived: true });
  const a = await lock(priv, pi.number, p.owner.auth);
  assert.is(a.response.status, 423);
  assertSpec('issueLockIssue', a);
});

test.run();
