import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, newLabel, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { newOrgLabel, orgWithRepo } from '../../helpers/labels.js';
import { raw } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

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

const get = (repo: Repo, id: number, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/labels/{id}', { params: { path: { ...repo.path, id } } });

test('200: the label as created, for anonymous callers, outsiders and readers of a public repository and readers of a private one', async () => {
  const label = await newLabel(app, pub, p.owner, { name: 'scope/x', exclusive: true, description: 'd' });
  for (const [who, auth] of [['anonymous', undefined], ['outsider', p.outsider.auth], ['reader', p.reader.auth]] as const) {
    const r = await get(pub, label.id, auth);
    assert.is(r.response.status, 200, who);
    assertSpec('issueGetLabel', r);
    assert.equal(r.data, label, who);
  }
  const secret = await newLabel(app, priv, p.owner);
  assert.equal((await get(priv, secret.id, p.reader.auth)).data, secret);
});

test('404: a private repository for an outsider, a label of another repository, an organization label, an unknown id, issues and pulls off', async () => {
  const secret = await newLabel(app, priv, p.owner);
  const r = await get(priv, secret.id, p.outsider.auth);
  assertEmpty404(r, 'outsider');
  assertSpec('issueGetLabel', r);
  assertEmpty404(await get(priv, secret.id), 'anonymous');
  assertEmpty404(await get(pub, secret.id, p.owner.auth), 'label of another repository');
  const { w, repo } = await orgWithRepo(app);
  const orgLabel = await newOrgLabel(app, w.name, w.owner);
  assertEmpty404(await get(repo, orgLabel.id, w.owner.auth), 'organization label');
  assertEmpty404(await get(pub, 999999), 'unknown');
  const off = await sharedRepo(app, p);
  const label = await newLabel(app, off, p.owner);
  await editRepo(app, off, { has_issues: false, has_pull_requests: false });
  assertEmpty404(await get(off, label.id, p.owner.auth), 'units off');
});

test('422: an id that is not an integer', async () => {
  const r = await raw(app, 'GET', `/repos/${pub.full_name}/labels/abc`);
  assert.is(r.response.status, 422);
});

test.run();
