import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addLink, listLinks, ref, refs } from '../../helpers/dependencies.js';
import { assertEmpty404, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
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

test('200: the issues that depend on this one, readable ones only, paginated', async () => {
  const blocker = await newIssue(app, pub, p.owner);
  const a = await newIssue(app, pub, p.owner);
  const b = await newIssue(app, pub, p.owner);
  for (const x of [a, b]) assert.is((await addLink(app, 'blocks', pub, blocker.number, p.writer.auth, { index: x.number })).response.status, 201);
  const priv = await sharedRepo(app, p, { private: true });
  const hidden = await newIssue(app, priv, p.owner);
  assert.is((await addLink(app, 'dependencies', priv, hidden.number, p.owner.auth, { index: blocker.number, owner: pub.owner.login, repo: pub.name })).response.status, 201);
  const r = await listLinks(app, 'blocks', pub, blocker.number, p.owner.auth);
  assertSpec('issueListBlocks', r);
  assert.equal(refs(r), [ref(pub, a.number), ref(pub, b.number), ref(priv, hidden.number)]);
  assert.equal(refs(await listLinks(app, 'blocks', pub, blocker.number)), [ref(pub, a.number), ref(pub, b.number)], 'anonymous');
  assert.equal(refs(await listLinks(app, 'blocks', pub, blocker.number, undefined, { page: 2, limit: 1 })), [ref(pub, b.number)]);
});

test('404: no issue; a private repository for an outsider', async () => {
  assertEmpty404(await listLinks(app, 'blocks', pub, 99_999));
  const priv = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, priv, p.owner);
  assertEmpty404(await listLinks(app, 'blocks', priv, i.number, p.outsider.auth));
});

test.run();
