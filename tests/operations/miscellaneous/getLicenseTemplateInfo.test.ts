import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404 } from '../../helpers/issues.js';
import { actor, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let user: Actor;

test.before(async () => {
  app = await startApp();
  user = await actor(app);
});
test.after(async () => {
  await app.close();
});

const get = (name: string, auth?: string) => app.client(auth).GET('/licenses/{name}', { params: { path: { name } } });

test('200: key, name, URL, Gitea\'s implementation note and the text with its placeholders', async () => {
  for (const auth of [undefined, user.auth]) {
    const r = await get('MIT', auth);
    assert.is(r.response.status, 200);
    assertSpec('getLicenseTemplateInfo', r);
    assert.is(r.data!.key, 'MIT');
    assert.is(r.data!.name, 'MIT');
    assert.is(r.data!.url, `${app.config.rootUrl}api/v1/licenses/MIT`);
    assert.match(r.data!.implementation, /LICENSE/);
    assert.match(r.data!.body, /Permission is hereby granted/);
    assert.match(r.data!.body, /<year>/);
  }
  assert.is((await get('GPL-3.0-or-later')).response.status, 200);
});

test('404: unknown identifiers, another case, inherited object keys', async () => {
  for (const name of ['NoSuch-1.0', 'mit', 'constructor', '__proto__', 'toString']) {
    const r = await get(name);
    assertEmpty404(r, name);
    assertSpec('getLicenseTemplateInfo', r);
  }
});

test('401: a bad token', async () => {
  const r = await get('MIT', 'token nope');
  assert.is(r.response.status, 401);
  assertSpec('getLicenseTemplateInfo', r);
});

test.run();
