import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { setTopics } from '../../helpers/forks.js';
import { people, sharedRepo, type People } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  const [a, b, secret] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  await setTopics(app, p.owner, a.path, ['golang', 'web']);
  await setTopics(app, p.owner, b.path, ['golang', 'cli']);
  await setTopics(app, p.owner, secret.path, ['golang', 'hidden-go']);
});
test.after(async () => {
  await app.close();
});

const search = (q: string, auth: string | null, query: Record<string, unknown> = {}) =>
  app.client(auth ?? undefined).GET('/topics/search', { params: { query: { q, ...query } as never } });

test('200: topics containing q, most used first, counting only the repositories the caller can see', async () => {
  const anon = await search('go', null);
  assert.is(anon.response.status, 200);
  assertSpec('topicSearch', anon);
  assert.equal(anon.data!.topics.map((t) => [t.topic_name, t.repo_count]), [['golang', 2]]);
  assert.is(anon.response.headers.get('x-total-count'), '1');
  const reader = await search('GO', p.reader.auth);
  assert.equal(reader.data!.topics.map((t) => [t.topic_name, t.repo_count]), [['golang', 3], ['hidden-go', 1]]);
  const again = await search('golang', p.admin.auth);
  assert.is(again.data!.topics[0]!.id, reader.data!.topics[0]!.id, 'the id is stable');
  const all = await search('', p.outsider.auth, { limit: 2 });
  assert.equal(all.data!.topics.map((t) => t.topic_name), ['golang', 'cli']);
  assert.is(all.response.headers.get('x-total-count'), '3');
  assert.equal((await search('%', null)).data, { topics: [] });
});

test('200 with every topic without q; 422 with a bad page', async () => {
  const res = await app.client().GET('/topics/search', { params: { query: {} } });
  assert.is(res.response.status, 200);
  assertSpec('topicSearch', res);
  assert.equal(res.data!.topics.map((t) => t.topic_name), ['golang', 'cli', 'web']);
  assert.is((await search('go', null, { page: 'x' })).response.status, 422);
});

test.run();
