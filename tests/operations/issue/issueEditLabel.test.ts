import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { messageOf, swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import type { components } from '../../../generated/openapi.js';

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

const edit = (repo: Repo, id: number, body: components['schemas']['EditLabelOption'], authorization?: string) =>
  app.client(authorization).PATCH('/repos/{owner}/{repo}/labels/{id}', { params: { path: { ...repo.path, id } }, body });

test('200: writers, the owner and the site admin change the fields given; GET answers the same', async () => {
  const label = await newLabel(app, pub, p.owner, { name: 'old', color: '#111111', description: 'keep' });
  const r = await edit(pub, label.id, { name: 'new', color: 'ABC', exclusive: true, is_archived: true }, p.writer.auth);
  assert.is(r.response.status, 200, JSON.stringify(r.error));
  assertSpec('issueEditLabel', r);
  assert.equal(r.data, { ...label, name: 'new', color: 'aabbcc', exclusive: true, is_archived: true });
  const got = await app.client().GET('/repos/{owner}/{repo}/labels/{id}', { params: { path: { ...pub.path, id: label.id } } });
  assert.equal(got.data, r.data);
  const blank = await edit(pub, label.id, { name: '  ', description: 'changed' }, p.owner.auth);
  assert.equal(blank.data, { ...r.data!, description: 'changed', is_archived: false }, 'a blank name is kept; is_archived left out un-archives (Gitea)');
  assert.is((await edit(pub, label.id, {}, p.admin.auth)).response.status, 200, 'site admin');
  assert.is((await edit(priv, (await newLabel(app, priv, p.owner)).id, { name: 'x' }, p.writer.auth)).response.status, 200, 'private repository writer');
});

test('403: a reader and an outsider; 401: anonymous', async () => {
  const label = await newLabel(app, pub, p.owner);
  for (const [who, as] of [['reader', p.reader], ['outsider', p.outsider]] as const) {
    const r = await edit(pub, label.id, { name: 'nope' }, as.auth);
    assert.is(r.response.status, 403, who);
    assertSpec('issueEditLabel', r);
    assert.is(messageOf(r.error), 'user should have a permission to write to a repo');
  }
  assert.is((await edit(pub, label.id, { name: 'nope' })).response.status, 401);
});

test('404: a private repository for an outsider, a label of another repository, an unknown id', async () => {
  const secret = await newLabel(app, priv, p.owner);
  assertEmpty404(await edit(priv, secret.id, { name: 'x' }, p.outsider.auth), 'outsider');
  const r = await edit(pub, secret.id, { name: 'x' }, p.owner.auth);
  assertEmpty404(r, 'another repository');
  assertSpec('issueEditLabel', r);
  assertEmpty404(await edit(pub, 999999, { name: 'x' }, p.owner.auth), 'unknown');
});

test('422: a bad colour; 423: an archived repository', async () => {
  const label = await newLabel(app, pub, p.owner);
  const bad = await edit(pub, label.id, { color: 'zzzzzz' }, p.writer.auth);
  assert.is(bad.response.status, 422);
  assertSpec('issueEditLabel', bad);
  assert.is((bad.error as { url: string }).url, swaggerOf(app));
  const repo = await sharedRepo(app, p);
  const l = await newLabel(app, repo, p.owner);
  await editRepo(app, repo, { archived: true });
  const r = await edit(repo, l.id, { name: 'x' }, p.owner.auth);
  assert.is(r.response.status, 423);
  assertSpec('issueEditLabel', r);
});

test.run();
