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

test('200: anonymous callers, users and tokens of any scope get the sorted names repository creation accepts', async () => {
  for (const auth of [undefined, user.auth, await app.token(user, ['read:user'])]) {
    const r = await app.client(auth).GET('/gitignore/templates');
    assert.is(r.response.status, 200);
    assertSpec('listGitignoresTemplates', r);
    const names = r.data!;
    assert.ok(names.includes('Go') && names.includes('Node') && names.includes('C++'));
    assert.equal(names, [...names].sort());
    assert.is(new Set(names).size, names.length);
  }
  const created = await app.client(user.auth).POST('/user/repos', { body: { name: 'gi', gitignores: 'Go,Node', auto_init: true } });
  assert.is(created.response.status, 201);
});

test('401: a bad token', async () => {
  const r = await app.client('token nope').GET('/gitignore/templates');
  assert.is(r.response.status, 401);
  assertSpec('listGitignoresTemplates', r);
});

test.run();
