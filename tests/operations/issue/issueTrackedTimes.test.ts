import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { messageOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { anotherRepo, setTracker, timeWorld, tracked, type TimeWorld, type TrackedTime } from '../../helpers/times.js';

let app: TestApp;
let w: TimeWorld;
let byWriter: TrackedTime[];
let byReader: TrackedTime;

const list = (query: Record<string, string | number>, authorization?: string, repo = w.repo, index = w.readersIssue.number) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/issues/{index}/times', { params: { path: { ...repo.path, index }, query } });

test.before(async () => {
  app = await startApp();
  w = await timeWorld(app);
  const i = w.readersIssue.number;
  byWriter = [];
  for (const [time, created] of [[100, '2024-01-01T10:00:00Z'], [200, '2024-01-02T10:00:00Z'], [300, '2024-01-03T10:00:00Z']] as const) {
    byWriter.push(await tracked(app, w.repo, i, w.p.writer, { time, created }));
  }
  byReader = await tracked(app, w.repo, i, w.p.reader, { time: 50, created: '2024-01-02T12:00:00Z' });
});
test.after(async () => {
  await app.close();
});

const ids = (ts: TrackedTime[] | undefined) => (ts ?? []).map((t) => t.id);

test('200: writers, the owner and the site admin see everyone’s times, oldest first, with X-Total-Count', async () => {
  for (const as of [w.p.writer, w.p.owner, w.p.admin]) {
    const r = await list({}, as.auth);
    assert.is(r.response.status, 200);
    assertSpec('issueTrackedTimes', r);
    assert.equal(ids(r.data), [byWriter[0]!.id, byWriter[1]!.id, byReader.id, byWriter[2]!.id], as.username);
    assert.is(r.response.headers.get('x-total-count'), '4');
  }
  const r = await list({ user: w.p.reader.username }, w.p.writer.auth);
  assert.equal(ids(r.data), [byReader.id]);
});

test('200: a reader sees only their own times; asking for someone else’s is 403', async () => {
  const own = await list({}, w.p.reader.auth);
  assert.equal(ids(own.data), [byReader.id]);
  assert.equal(ids((await list({ user: w.p.reader.username }, w.p.reader.auth)).data), [byReader.id]);
  const other = await list({ user: w.p.writer.username }, w.p.reader.auth);
  assert.is(other.response.status, 403);
  assertSpec('issueTrackedTimes', other);
  assert.is(messageOf(other.error), 'query by user not allowed; not enough rights');
  const outsider = await list({}, w.p.outsider.auth);
  assert.equal(outsider.data, [], 'an outsider of a public repository has none');
});

test('since and before keep the times created at or after / at or before them; pages', async () => {
  const r = await list({ since: '2024-01-02T10:00:00Z', before: '2024-01-02T12:00:00Z' }, w.p.owner.auth);
  assert.equal(ids(r.data), [byWriter[1]!.id, byReader.id]);
  assert.is(r.response.headers.get('x-total-count'), '2');
  const offset = await list({ since: '2024-01-02T11:00:00+01:00' }, w.p.owner.auth);
  assert.equal(ids(offset.data), [byWriter[1]!.id, byReader.id, byWriter[2]!.id]);
  const p2 = await list({ limit: 3, page: 2 }, w.p.owner.auth);
  assert.equal(ids(p2.data), [byWriter[2]!.id]);
  assert.match(p2.response.headers.get('link') ?? '', 'rel="first"');
});

test('422: an unparsable since or before; 404: an unknown user', async () => {
  for (const q of [{ since: 'last week' }, { before: '2024-13-01T00:00:00Z' }] as Array<Record<string, string>>) {
    const r = await list(q, w.p.owner.auth);
    assert.is(r.response.status, 422, JSON.stringify(q));
    assertSpec('issueTrackedTimes', r);
  }
  assertEmpty404(await list({ user: 'nobody-here' }, w.p.owner.auth), 'unknown user');
});

test('404: the time tracker is off; an unknown issue; a private repository for an outsider', async () => {
  const off = await anotherRepo(app, w);
  await tracked(app, off.repo, off.issue.number, w.p.writer, { time: 10 });
  await setTracker(app, off.repo, false);
  const r = await list({}, w.p.owner.auth, off.repo, off.issue.number);
  assertEmpty404(r, 'tracker off');
  assertSpec('issueTrackedTimes', r);
  assertEmpty404(await list({}, w.p.owner.auth, w.repo, 9999), 'unknown issue');
  const priv = await anotherRepo(app, w, { private: true });
  assertEmpty404(await list({}, w.p.outsider.auth, priv.repo, priv.issue.number), 'outsider');
});

test('401: anonymous; 403: a token without read:issue', async () => {
  const anon = await list({});
  assert.is(anon.response.status, 401);
  assertSpec('issueTrackedTimes', anon);
  const r = await list({}, await app.token(w.p.writer, ['read:repository']));
  assert.is(r.response.status, 403);
});

test.run();
