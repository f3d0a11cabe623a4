// The removal operations of issue dependencies and blocks (#38) behave alike from either side:
// issueRemoveIssueDependencies and issueRemoveIssueBlocking call this with their side.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from './harness.js';
import { addLink, removeLink, listLinks, ref, refs, type Side } from './dependencies.js';
import { assertEmpty404, editRepo, newIssue, people, sharedRepo, type People, type Repo } from './issues.js';
import { assertSpec } from './spec-check.js';

export function removeLinkTests(side: Side, operationId: 'issueRemoveIssueBlocking' | 'issueRemoveIssueDependencies'): void {
  const other: Side = side === 'blocks' ? 'dependencies' : 'blocks';
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

  test(`200: the link goes (seen from both sides); again is 200 too; the path issue is answered (${side})`, async () => {
    const x = await newIssue(app, pub, p.owner);
    const y = await newIssue(app, pub, p.owner);
    assert.is((await addLink(app, side, pub, x.number, p.writer.auth, { index: y.number })).response.status, 201);
    const r = await removeLink(app, side, pub, x.number, p.writer.auth, { index: y.number });
    assert.is(r.response.status, 200);
    assertSpec(operationId, r);
    assert.is(r.data!.number, x.number);
    assert.equal(refs(await listLinks(app, side, pub, x.number)), []);
    assert.equal(refs(await listLinks(app, other, pub, y.number)), []);
    assert.is((await removeLink(app, side, pub, x.number, p.writer.auth, { index: y.number })).response.status, 200, 'again');
  });

  test(`403 a reader; 404; 401; 423 (${side})`, async () => {
    const x = await newIssue(app, pub, p.owner);
    const y = await newIssue(app, pub, p.owner);
    await addLink(app, side, pub, x.number, p.writer.auth, { index: y.number });
    const f = await removeLink(app, side, pub, x.number, p.reader.auth, { index: y.number });
    assert.is(f.response.status, 403);
    assertSpec(operationId, f);
    assert.equal(refs(await listLinks(app, side, pub, x.number)), [ref(pub, y.number)], 'still there');
    assertEmpty404(await removeLink(app, side, pub, 99_999, p.writer.auth, { index: y.number }));
    assertEmpty404(await removeLink(app, side, pub, x.number, p.writer.auth, { index: 99_999 }));
    assert.is((await removeLink(app, side, pub, x.number, undefined, { index: y.number })).response.status, 401);
    const arch = await sharedRepo(app, p);
    const a1 = await newIssue(app, arch, p.owner);
    const a2 = await newIssue(app, arch, p.owner);
    await addLink(app, side, arch, a1.number, p.owner.auth, { index: a2.number });
    await editRepo(app, arch, { archived: true });
    const locked = await removeLink(app, side, arch, a1.number, p.owner.auth, { index: a2.number });
    assert.is(locked.response.status, 423);
    assertSpec(operationId, locked);
  });

  test.run();
}
