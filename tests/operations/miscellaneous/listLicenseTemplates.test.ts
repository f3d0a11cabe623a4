import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
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

test('200: every SPDX license, sorted, each with the URL of its own operation; anonymous too', async () => {
  for (const auth of [undefined, user.auth]) {
    const r = await app.client(auth).GET('/licenses');
    assert.is(r.response.status, 200);
    assertSpec('listLicenseTemplates', r);
    const keys = r.data!.map((l) => l.key);
    for (const k of ['MIT', 'Apache-2.0', 'GPL-3.0-only', 'BSD-2-Clause', 'ISC', 'Unlicense']) assert.ok(keys.includes(k), k);
    assert.ok(keys.length > 400);
    assert.equal(keys, [...keys].sort());
    const mit = r.data!.find((l) => l.key === 'MIT')!;
    assert.equal(mit, { key: 'MIT', name: 'MIT', url: `${app.config.rootUrl}api/v1/licenses/MIT` });
    const followed = await fetch(mit.url.replace(app.config.rootUrl, `${app.url}/`));
    assert.is(followed.status, 200);
  }
});

test('a listed license is accepted by repository creation (not only the five of before)', async () => {
  const r = await app.client(user.auth).POST('/user/repos', { body: { name: 'bsd', license: 'BSD-2-Clause', auto_init: true } });
  assert.is(r.response.status, 201);
  const file = await app.client(user.auth).GET('/repos/{owner}/{repo}/raw/{filepath}', {
    params: { path: { owner: user.username, repo: 'bsd', filepath: 'LICENSE' } }, parseAs: 'text',
  });
  assert.match(file.data!, /^Copyright \(c\) \d{4} /);
  assert.match(file.data!, new RegExp(user.username));
});

test('401: a bad token', async () => {
  const r = await app.client('token nope').GET('/licenses');
  assert.is(r.response.status, 401);
  assertSpec('listLicenseTemplates', r);
});

test.run();
