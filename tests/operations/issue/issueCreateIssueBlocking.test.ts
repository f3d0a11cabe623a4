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

test('201: the body issue depends on the path issue; the path issue is answered', async () => {
  const blocker = await newIssue(app, pub, p.owner);
  const blocked = await newIssue(app, pub, p.owner);
  const r = await addLink(app, 'blocks', pub, blocker.number, p.writer.auth, { index: blocked.number, owner: pub.owner.login, repo: pub.name });
  assert.is(r.response.status, 201);
  assertSpec('issueCreateIssueBlocking', r);
  assert.is(r.data!.number, blocker.number);
  assert.equal(refs(await listLinks(app, 'dependencies', pub, blocked.number)), [ref(pub, blocker.number)]);
  const twice = await addLink(app, 'blocks', pub, blocker.number, p.writer.auth, { index: blocked.number });
  assert.is(twice.response.status, 409);
  assertSpec('issueCreateIssueBlocking', twice);
});

test('403: a reader of the blocked issue\'s repository; 404: the blocked issue cannot be seen; 401', async () => {
  const blocker = await newIssue(app, pub, p.owner);
  const blocked = await newIssue(app, pub, p.owner);
  const f = await addLink(app, 'blocks', pub, blocker.number, p.reader.auth, { index: blocked.number });
  assert.is(f.response.status, 403);
  assertSpec('issueCreateIssueBlocking', f);
  const priv = await sharedRepo(app, p, { private: true });
  const hidden = await newIssue(app, priv, p.owner);
  assertEmpty404(await addLink(app, 'blocks', pub, blocker.number, p.outsider.auth, { index: hidden.number, owner: priv.owner.login, repo: priv.name }));
  assert.is((await addLink(app, 'blocks', pub, blocker.number, undefined, { index: blocked.number })).response.status, 401);
});

test.run();
