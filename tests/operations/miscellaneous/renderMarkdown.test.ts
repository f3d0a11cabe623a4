import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { renderRequest } from '../../helpers/markup.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [pub, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const render = (body: unknown, auth?: string) => renderRequest(app, '/markdown', body, auth);

test('200: Markdown as HTML, raw HTML escaped, script links dropped; any token scope', async () => {
  for (const auth of [p.reader.auth, await app.token(p.reader, ['read:user'])]) {
    const r = await render({ Text: '# Title\n\n**bold** <script>alert(1)</script> [x](javascript:alert(1))\n\n| a |\n|---|\n| b |' }, auth);
    assert.is(r.status, 200);
    assertSpecAnswer('renderMarkdown', r.status, r.text);
    assert.match(r.type, /^text\/html/);
    assert.match(r.text, /<h1>Title<\/h1>/);
    assert.match(r.text, /<strong>bold<\/strong>/);
    assert.match(r.text, /&lt;script&gt;/);
    assert.not.match(r.text, /href="javascript/);
    assert.match(r.text, /<table>/);
  }
  const empty = await render({}, p.reader.auth);
  assert.is(empty.status, 200);
  assert.is(empty.text, '');
});

test('mentions of existing accounts link in every mode; unknown and hidden ones stay text', async () => {
  const hidden = await app.user({ visibility: 'private' });
  const r = await render({ Text: `hi @${p.writer.username} and @nobody-here and @${hidden.username}, mail a@${p.writer.username}.org` }, p.reader.auth);
  assert.is(r.status, 200);
  assert.ok(r.text.includes(`<a href="${app.config.rootUrl}${p.writer.username}" class="mention">@${p.writer.username}</a>`), r.text);
  assert.not.match(r.text, /nobody-here<\/a>/);
  assert.not.ok(r.text.includes(`${hidden.username}</a>`), 'a private account is not revealed');
  assert.is(r.text.split('class="mention"').length, 2, 'the e-mail address is no mention');
});

test('gfm and comment link issue references of a context repository the caller can read; markdown mode does not', async () => {
  const ctx = `/${pub.path.owner}/${pub.path.repo}`;
  const link = `<a href="${app.config.rootUrl}${pub.path.owner}/${pub.path.repo}/issues/3" class="ref-issue">#3</a>`;
  for (const Mode of ['gfm', 'comment']) {
    const r = await render({ Text: 'see #3 and `#4`', Mode, Context: ctx }, p.outsider.auth);
    assert.ok(r.text.includes(link), `${Mode}: ${r.text}`);
    assert.ok(r.text.includes('<code>#4</code>'), 'code stays as it is');
  }
  for (const Mode of ['markdown', 'wiki', 'nonsense', undefined]) {
    const r = await render({ Text: 'see #3', Mode, Context: ctx }, p.outsider.auth);
    assert.is(r.status, 200, String(Mode));
    assert.not.match(r.text, /ref-issue/, String(Mode));
  }
  const secret = await render({ Text: 'see #3', Mode: 'gfm', Context: `/${priv.path.owner}/${priv.path.repo}` }, p.outsider.auth);
  assert.not.match(secret.text, /ref-issue/, 'a private repository the caller cannot see');
  const mine = await render({ Text: 'see #3', Mode: 'gfm', Context: `/${priv.path.owner}/${priv.path.repo}` }, p.reader.auth);
  assert.match(mine.text, /ref-issue/);
});

test('relative links and images resolve against the context', async () => {
  const r = await render({ Text: '[doc](docs/a.md) ![i](img.png) [abs](https://example.com/x) [top](#t)', Context: `/${pub.path.owner}/${pub.path.repo}/src/branch/main` }, p.reader.auth);
  assert.ok(r.text.includes(`href="${app.config.rootUrl}${pub.path.owner}/${pub.path.repo}/src/branch/main/docs/a.md"`), r.text);
  assert.ok(r.text.includes(`src="${app.config.rootUrl}${pub.path.owner}/${pub.path.repo}/src/branch/main/img.png"`), r.text);
  assert.ok(r.text.includes('href="https://example.com/x"'));
  assert.ok(r.text.includes('href="#t"'));
});

test('401: anonymous and bad tokens (Gitea requires a signed-in caller)', async () => {
  for (const auth of [undefined, 'token nope']) {
    const r = await render({ Text: 'x' }, auth);
    assert.is(r.status, 401);
    assertSpecAnswer('renderMarkdown', r.status, JSON.parse(r.text));
  }
});

test('400/422: malformed JSON, wrong types, NUL', async () => {
  const bad = await fetch(`${app.url}/api/v1/markdown`, { method: 'POST', headers: { Authorization: p.reader.auth, 'Content-Type': 'application/json' }, body: '{' });
  assert.is(bad.status, 400);
  for (const body of [{ Text: 5 }, { Text: 'a\u0000b' }, { Wiki: 'yes' }]) {
    const r = await render(body, p.reader.auth);
    assert.is(r.status, 422, JSON.stringify(body));
    assertSpecAnswer('renderMarkdown', r.status, JSON.parse(r.text));
  }
});

test.run();
