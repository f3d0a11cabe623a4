import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import type { Repository } from '../../helpers/repos.js';

let app: TestApp;
let r: Roles;
let pub: Repository;
let priv: Repository;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  [pub, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, authorization?: string) =>
  fetch(new URL(`/api/v1/repos/${target.full_name}/signing-key.gpg`, app.url), { headers: authorization ? { Authorization: authorization } : {} });

test('200: empty plain text, as Gitea answers with no signing key configured', async () => {
  for (const auth of [undefined, r.outsider.auth, r.reader.auth]) {
    const res = await get(pub, auth);
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.is(await res.text(), '');
  }
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers', async () => {
  for (const who of [r.owner, r.writer, r.reader, r.admin]) assert.is((await get(priv, who.auth)).status, 200, who.username);
  for (const auth of [r.outsider.auth, undefined]) {
    const res = await get(priv, auth);
    assert.is(res.status, 404);
    assert.is(await res.text(), '');
  }
  assert.is((await get({ ...pub, full_name: `${pub.full_name}-missing` })).status, 404);
});

test('403: a token without the repository scope', async () => {
  const res = await get(pub, await wrongScope(app, r.owner, false));
  assert.is(res.status, 403);
});

test.run();
