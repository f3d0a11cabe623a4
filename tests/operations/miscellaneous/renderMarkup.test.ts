import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { renderRequest } from '../../helpers/markup.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

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

const render = (body: unknown, auth?: string) => renderRequest(app, '/markup', body, auth);

test('200: every Gitea mode; gfm, comment, wiki and file link issue references of the context', async () => {
  const Context = `/${pub.path.owner}/${pub.path.repo}`;
  for (const Mode of ['', 'markdown', 'gfm', 'comment', 'wiki', 'file']) {
    const r = await render({ Text: '_x_ #2', Mode, Context, FilePath: 'README.md' }, p.reader.auth);
    assert.is(r.status, 200, Mode);
    assertSpecAnswer('renderMarkup', r.status, r.text);
    assert.match(r.text, /<em>x<\/em>/);
    assert.is(/ref-issue/.test(r.text), Mode !== '' && Mode !== 'markdown', Mode);
  }
});

test('422: an unknown mode, a file mode file that is not Markdown', async () => {
  const mode = await render({ Text: 'x', Mode: 'asciidoc' }, p.reader.auth);
  assert.is(mode.status, 422);
  assertSpecAnswer('renderMarkup', mode.status, JSON.parse(mode.text));
  assert.is(JSON.parse(mode.text).message, 'Unknown mode: asciidoc');
  for (const FilePath of ['a.txt', 'README', undefined]) {
    const r = await render({ Text: 'x', Mode: 'file', FilePath }, p.reader.auth);
    assert.is(r.status, 422, String(FilePath));
  }
});

test('401: anonymous', async () => {
  const r = await render({ Text: 'x' });
  assert.is(r.status, 401);
  assertSpecAnswer('renderMarkup', r.status, JSON.parse(r.text));
});

test.run();
