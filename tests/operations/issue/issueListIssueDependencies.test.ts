import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addLink, listLinks, ref, refs } from '../../helpers/dependencies.js';
import { assertEmpty404, editRepo, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  pub = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

test('200: in the order added, paginated; dependencies the caller cannot read are left out', async () => {
  const a = await newIssue(app, pub, p.owner);
  const deps = [await newIssue(app, pub, p.owner), await newIssue(app, pub, p.owner), await newIssue(app, pub, p.owner)];
  for (const d of deps) assert.is((await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: d.number })).response.status, 201);
  const priv = await sharedRepo(app, p, { private: true });
  const hidden = await newIssue(app, priv, p.owner);
  assert.is((await addLink(app, 'dependencies', pub, a.number, p.owner.auth, { index: hidden.number, owner: priv.owner.login, repo: priv.name })).response.status, 201);
  const r = await listLinks(app, 'dependencies', pub, a.number, p.owner.auth);
  assertSpec('issueListIssueDependencies', r);
  assert.equal(refs(r), [...deps.map((d) => ref(pub, d.number)), ref(priv, hidden.number)]);
  const outsider = await listLinks(app, 'dependencies', pub, a.number, p.outsider.auth);
  assert.equal(refs(outsider), deps.map((d) => ref(pub, d.number)), 'the private one is left out');
  assert.is(outsider.response.headers.get('x-total-count'), '3');
  const page = await listLinks(app, 'dependencies', pub, a.number, undefined, { page: 2, limit: 2 });
  assert.equal(refs(page), [ref(pub, deps[2]!.number)]);
  assert.equal(refs(await listLinks(app, 'dependencies', pub, deps[0]!.number)), []);
});

test('404: no issue; a private repository for an outsider; dependencies switched off', async () => {
  assertEmpty404(await listLinks(app, 'dependencies', pub, 99_999));
  const priv = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, priv, p.owner);
  assertEmpty404(await listLinks(app, 'dependencies', priv, i.number, p.outsider.auth));
  await editRepo(app, priv, { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: false } });
  assertEmpty404(await listLinks(app, 'dependencies', priv, i.number, p.owner.auth));
});

test.run();
