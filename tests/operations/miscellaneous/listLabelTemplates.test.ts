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

test('200: Gitea\'s two sets, for anyone; each is accepted by repository creation', async () => {
  for (const auth of [undefined, user.auth]) {
    const r = await app.client(auth).GET('/label/templates');
    assert.is(r.response.status, 200);
    assertSpec('listLabelTemplates', r);
    assert.equal(r.data, ['Advanced', 'Default']);
  }
  for (const set of ['Advanced', 'Default']) {
    const r = await app.client(user.auth).POST('/user/repos', { body: { name: `l-${set}`, issue_labels: set } });
    assert.is(r.response.status, 201, set);
  }
});

test('401: a bad token', async () => {
  const r = await app.client('token nope').GET('/label/templates');
  assert.is(r.response.status, 401);
  assertSpec('listLabelTemplates', r);
});

test.run();
