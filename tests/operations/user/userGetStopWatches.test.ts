import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dropCollaborator } from '../../helpers/notifications.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, backdateStopwatch, stopwatch, timeWorld, type TimeWorld } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;

const list = (authorization?: string) => app.client(authorization).GET('/user/stopwatches');

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
});
test.after(async () => {
  await app.close();
});

test('200: empty without a stopwatch; the running one with its issue, repository, seconds and Gitea’s duration', async () => {
  const empty = await list(w.p.writer.auth);
  assert.is(empty.response.status, 200);
  assertSpec('userGetStopWatches', empty);
  assert.equal(empty.data, []);
  assert.is(empty.response.headers.get('x-total-count'), '0');
  await stopwatch(app, 'start', w.repo, w.issue.number, w.p.writer.auth);
  await backdateStopwatch(app, w.p.writer.id, 93784); // 1d 2h 3m 4s
  const r = await list(w.p.writer.auth);
  assertSpec('userGetStopWatches', r);
  const [sw] = r.data!;
  assert.ok(sw!.seconds >= 93784 && sw!.seconds < 93844, String(sw!.seconds));
  assert.match(sw!.duration, /^1d 2h 3m( \d+s)?$/);
  assert.equal(
    { ...sw, seconds: 0, duration: '' },
    { created: sw!.created, seconds: 0, duration: '', issue_index: w.issue.number, issue_title: w.issue.title, repo_owner_name: w.p.owner.username, repo_name: w.repo.name },
  );
  assert.ok(Math.abs(Date.parse(sw!.created) - (Date.now() - 93784_000)) < 60_000, sw!.created);
  assert.equal((await list(w.p.owner.auth)).data, [], 'only the caller’s');
});

test('a stopwatch on an issue the caller can no longer read is not listed', async () => {
  const priv = await anotherRepo(app, w, { private: true });
  assert.is((await stopwatch(app, 'start', priv.repo, priv.issue.number, w.p.reader.auth)).response.status, 403);
  assert.is((await stopwatch(app, 'start', priv.repo, priv.issue.number, w.p.writer.auth)).response.status, 201);
  assert.is((await list(w.p.writer.auth)).data!.length, 1);
  await dropCollaborator(app, priv.repo, w.p.owner, w.p.writer);
  const r = await list(w.p.writer.auth);
  assert.equal(r.data, []);
  assert.is(r.response.headers.get('x-total-count'), '0');
});

test('401: anonymous; 403: a token without read:user', async () => {
  const anon = await list();
  assert.is(anon.response.status, 401);
  assertSpec('userGetStopWatches', anon);
  const r = await list(await app.token(w.p.writer, ['read:issue']));
  assert.is(r.response.status, 403);
  assertSpec('userGetStopWatches', r);
});

test.run();
