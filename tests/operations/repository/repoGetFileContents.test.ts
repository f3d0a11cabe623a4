import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { contentsWorld, type ContentsWorld } from '../../helpers/contents.js';
import { wrongScope } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Contents = components['schemas']['ContentsResponse'];

let app: TestApp;
let w: ContentsWorld;

test.before(async () => {
  app = await startApp();
  w = await contentsWorld(app);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, body: string, query: { ref?: string } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/file-contents', { params: { path: pathOf(target), query: { ...query, body } } });
const text = (c: Contents | null) => (c?.content ? Buffer.from(c.content, 'base64').toString() : c?.content);

test('200: the POST body as JSON in `body`: one answer per path, null where nothing is', async () => {
  const res = await get(w.repo, JSON.stringify({ files: ['docs/guide.md', 'missing', 'docs/x.txt'] }));
  assert.is(res.response.status, 200);
  assertSpec('repoGetFileContents', res);
  const list = res.data as Array<Contents | null>;
  assert.equal(list.map(text), ['# Guide\n', undefined, 'x\n']);
  assert.is(list[1], null);
  assert.is(list[0]!.last_commit_sha, w.tip);
  const dev = (await get(w.repo, '{"files":["docs/guide.md"]}', { ref: 'dev' })).data as Contents[];
  assert.is(text(dev[0]!), 'dev guide\n');
  assert.equal((await get(w.repo, '{}')).data, [], 'no files: an empty list');
});

test('200: a read-scoped token suffices (the reason this form exists)', async () => {
  const res = await get(w.priv, '{"files":["docs/x.txt"]}', {}, await app.token(w.r.reader, ['read:repository']));
  assert.is(res.response.status, 200);
  assert.is(text((res.data as Contents[])[0]!), 'x\n');
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers', async () => {
  for (const who of [w.r.owner, w.r.writer, w.r.reader, w.r.admin]) {
    assert.is((await get(w.priv, '{"files":["docs/x.txt"]}', {}, who.auth)).response.status, 200, who.username);
  }
  for (const auth of [w.r.outsider.auth, undefined]) {
    const res = await get(w.priv, '{"files":["docs/x.txt"]}', {}, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoGetFileContents', res);
  }
});

test('400: `body` that is not {"files": [strings]}', async () => {
  for (const body of ['not json', '[]', '"files"', '{"files":"a"}', '{"files":[1]}', 'null']) {
    const res = await get(w.repo, body);
    assert.is(res.response.status, 400, body);
    assertSpec('repoGetFileContents', res);
    assert.equal(res.error, { message: 'invalid body parameter', url: swaggerOf(app) });
  }
});

test('404: an unknown ref, an empty repository; 422 without `body`', async () => {
  assert.is((await get(w.repo, '{"files":["README.md"]}', { ref: 'nope' })).response.status, 404);
  assert.is((await get(w.empty, '{"files":["README.md"]}')).response.status, 404);
  const res = await app.client().GET('/repos/{owner}/{repo}/file-contents', { params: { path: pathOf(w.repo), query: {} as { body: string } } });
  assert.is(res.response.status, 422);
  assertSpec('repoGetFileContents', res);
});

test('403: a token without the repository scope', async () => {
  const res = await get(w.repo, '{"files":[]}', {}, await wrongScope(app, w.r.owner, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetFileContents', res);
});

test.run();
