import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { renderRequest } from '../../helpers/markup.js';
import { actor, type Actor } from '../../helpers/repos.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let user: Actor;

test.before(async () => {
  app = await startApp();
  user = await actor(app);
});
test.after(async () => {
  await app.close();
});

const render = (text: string, auth?: string) => renderRequest(app, '/markdown/raw', text, auth);

test('200: the plain-text body rendered as Markdown, raw HTML escaped', async () => {
  const r = await render(`*hi* @${user.username} <b>x</b> #1`, user.auth);
  assert.is(r.status, 200);
  assertSpecAnswer('renderMarkdownRaw', r.status, r.text);
  assert.match(r.type, /^text\/html/);
  assert.match(r.text, /<em>hi<\/em>/);
  assert.match(r.text, /class="mention"/);
  assert.match(r.text, /&lt;b&gt;/);
  assert.not.match(r.text, /ref-issue/, 'no context, no issue links');
  const json = await render('{"Text": "# not JSON-read"}', user.auth);
  assert.is(json.status, 200);
  assert.match(json.text, /Text/, 'a JSON-looking body is text too');
});

test('401: anonymous and bad tokens', async () => {
  for (const auth of [undefined, 'token nope']) {
    const r = await render('x', auth);
    assert.is(r.status, 401);
    assertSpecAnswer('renderMarkdownRaw', r.status, JSON.parse(r.text));
  }
});

test('422: a NUL in the text', async () => {
  const r = await render('a\u0000b', user.auth);
  assert.is(r.status, 422);
  assertSpecAnswer('renderMarkdownRaw', r.status, JSON.parse(r.text));
});

test('413: a body past the limit', async () => {
  const r = await render('x'.repeat(app.config.bodyLimitBytes + 10), user.auth);
  assert.is(r.status, 413);
});

test.run();
