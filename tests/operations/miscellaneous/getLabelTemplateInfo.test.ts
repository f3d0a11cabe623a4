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

const get = (name: string, auth?: string) => app.client(auth).GET('/label/templates/{name}', { params: { path: { name } } });

test('200: the labels of the set, colours without #, the same labels repository creation makes', async () => {
  const r = await get('Default');
  assert.is(r.response.status, 200);
  assertSpec('getLabelTemplateInfo', r);
  assert.equal(r.data![0], { name: 'bug', color: 'ee0701', description: 'Something is not working', exclusive: false });
  const adv = await get('Advanced', user.auth);
  assert.is(adv.response.status, 200);
  assert.ok(adv.data!.some((l) => l.exclusive), 'Advanced has scoped exclusive labels');
  const created = await app.client(user.auth).POST('/user/repos', { body: { name: 'adv', issue_labels: 'Advanced' } });
  assert.is(created.response.status, 201);
  const labels = await app.client(user.auth).GET('/repos/{owner}/{repo}/labels', { params: { path: { owner: user.username, repo: 'adv' }, query: { limit: 50 } } });
  const made = labels.data!.map((l) => ({ name: l.name, color: l.color, description: l.description, exclusive: l.exclusive }));
  assert.equal(made.sort((a, b) => a.name.localeCompare(b.name)), [...adv.data!].sort((a, b) => a.name.localeCompare(b.name)));
});

test('404: unknown sets, another case, paths', async () => {
  for (const name of ['Nope', 'default', '../gitignore/Go', 'Default.json']) {
    const r = await get(name);
    assertEmpty404(r, name);
    assertSpec('getLabelTemplateInfo', r);
  }
});

test('401: a bad token', async () => {
  const r = await get('Default', 'token nope');
  assert.is(r.response.status, 401);
  assertSpec('getLabelTemplateInfo', r);
});

test.run();
