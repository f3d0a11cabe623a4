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

const get = (name: string, auth?: string) => app.client(auth).GET('/gitignore/templates/{name}', { params: { path: { name } } });

test('200: the name and text, the same text repository creation writes', async () => {
  for (const auth of [undefined, user.auth]) {
    const r = await get('Go', auth);
    assert.is(r.response.status, 200);
    assertSpec('getGitignoreTemplateInfo', r);
    assert.is(r.data!.name, 'Go');
    assert.match(r.data!.source, /\*\.exe/);
  }
  const cpp = await get('C++');
  assert.is(cpp.response.status, 200, 'a name with URL-special characters');
  const repo = await app.client(user.auth).POST('/user/repos', { body: { name: 'gi', gitignores: 'Go', auto_init: true } });
  assert.is(repo.response.status, 201);
  const file = await app.client(user.auth).GET('/repos/{owner}/{repo}/raw/{filepath}', {
    params: { path: { owner: user.username, repo: 'gi', filepath: '.gitignore' } }, parseAs: 'text',
  });
  assert.is(file.data, `# ---> Go\n${(await get('Go')).data!.source}\n`);
});

test('404: unknown names, another case, and paths outside the templates', async () => {
  for (const name of ['NoSuchThing', 'go', '../labels/Default.json', '..', 'Go.gitignore']) {
    const r = await get(name);
    assertEmpty404(r, name);
    assertSpec('getGitignoreTemplateInfo', r);
  }
});

test('401: a bad token', async () => {
  const r = await get('Go', 'token nope');
  assert.is(r.response.status, 401);
  assertSpec('getGitignoreTemplateInfo', r);
});

test.run();
