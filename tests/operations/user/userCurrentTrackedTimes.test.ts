import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dropCollaborator } from '../../helpers/notifications.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, myTimes, timeWorld, tracked, type TimeWorld, type TrackedTime } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;
let mine: TrackedTime[];

const list = (query: Record<string, string | number>, authorization?: string) => app.client(authorization).GET('/user/times', { params: { query } });
const ids = (ts: TrackedTime[] | undefined) => (ts ?? []).map((t) => t.id);

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
  const second = await anotherRepo(app, w);
  mine = [
    await tracked(app, w.repo, w.issue.number, w.p.writer, { time: 10, created: '2024-05-01T00:00:00Z' }),
    await tracked(app, second.repo, second.issue.number, w.p.writer, { time: 20, created: '2024-05-02T00:00:00Z' }),
    await tracked(app, w.repo, w.readersIssue.number, w.p.writer, { time: 30, created: '2024-05-03T00:00:00Z' }),
  ];
  await tracked(app, w.repo, w.issue.number, w.p.owner, { time: 40 });
});
test.after(async () => {
  await app.close();
});

test('200: the caller’s own times across repositories, oldest first, each with its issue and repository', async () => {
  const r = await list({}, w.p.writer.auth);
  assert.is(r.response.status, 200);
  assertSpec('userCurrentTrackedTimes', r);
  assert.equal(ids(r.data), ids(mine));
  assert.is(r.response.headers.get('x-total-count'), '3');
  assert.equal(r.data, mine, 'as they were answered when added');
  assert.equal(r.data!.map((t) => t.issue!.repository.full_name), mine.map((t) => t.issue!.repository.full_name));
  assert.equal(ids((await list({}, w.p.reader.auth)).data), [], 'a user with no time has none');
});

test('since and before, inclusive; pages', async () => {
  assert.equal(ids(await myTimes(app, w.p.writer, { since: '2024-05-02T00:00:00Z' })), [mine[1]!.id, mine[2]!.id]);
  assert.equal(ids(await myTimes(app, w.p.writer, { before: '2024-05-02T00:00:00Z' })), [mine[0]!.id, mine[1]!.id]);
  assert.equal(ids(await myTimes(app, w.p.writer, { since: '2024-05-01T12:00:00Z', before: '2024-05-02T12:00:00Z' })), [mine[1]!.id]);
  const p2 = await list({ limit: 2, page: 2 }, w.p.writer.auth);
  assert.equal(ids(p2.data), [mine[2]!.id]);
  assert.is(p2.response.headers.get('x-total-count'), '3');
});

test('422: an unparsable since or before', async () => {
  for (const q of [{ since: 'yesterday' }, { before: '2024-05-01' }, { since: '2024-02-30T00:00:00Z' }] as Array<Record<string, string>>) {
    const r = await list(q, w.p.writer.auth);
    assert.is(r.response.status, 422, JSON.stringify(q));
    assertSpec('userCurrentTrackedTimes', r);
  }
});

test('times in a repository the caller can no longer read are left out', async () => {
  const priv = await anotherRepo(app, w, { private: true });
  const t = await tracked(app, priv.repo, priv.issue.number, w.p.writer, { time: 50, created: '2024-05-04T00:00:00Z' });
  assert.equal(ids(await myTimes(app, w.p.writer)), [...ids(mine), t.id]);
  await dropCollaborator(app, priv.repo, w.p.owner, w.p.writer);
  const r = await list({}, w.p.writer.auth);
  assert.equal(ids(r.data), ids(mine));
  assert.is(r.response.headers.get('x-total-count'), '3');
});

test('401: anonymous; 403: a token without read:user', async () => {
  const anon = await list({});
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentTrackedTimes', anon);
  const r = await list({}, await app.token(w.p.writer, ['read:issue']));
  assert.is(r.response.status, 403);
  assertSpec('userCurrentTrackedTimes', r);
  assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [read:user]');
  assert.is((await list({}, await app.token(w.p.writer, ['read:user']))).response.status, 200);
});

test.run();
