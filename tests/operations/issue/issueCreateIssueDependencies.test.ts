import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { addLink, listLinks, ref, refs } from '../../helpers/dependencies.js';
import { assertEmpty404, editIssue, editRepo, getIssue, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
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

const close = (repo: Repo, index: number, as = p.writer) =>
  app.client(as.auth).PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index } }, body: { state: 'closed' } });

test('201: the path issue depends on the body issue (same repository by default, or another one); it cannot be closed while that is open', async () => {
  const a = await newIssue(app, pub, p.reader);
  const b = await newIssue(app, pub, p.reader);
  const r = await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: b.number });
  assert.is(r.response.status, 201);
  assertSpec('issueCreateIssueDependencies', r);
  assert.is(r.data!.number, a.number, 'the path issue');
  const other = await sharedRepo(app, p);
  const c = await newIssue(app, other, p.owner);
  assert.is((await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: c.number, owner: other.owner.login, repo: other.name })).response.status, 201);
  assert.equal(refs(await listLinks(app, 'dependencies', pub, a.number)), [ref(pub, b.number), ref(other, c.number)]);
  assert.equal(refs(await listLinks(app, 'blocks', pub, b.number)), [ref(pub, a.number)]);

  const refused = await close(pub, a.number);
  assert.is(refused.response.status, 412, 'open dependencies left');
  assertSpec('issueEditIssue', refused);
  assert.is((await getIssue(app, pub, a.number)).state, 'open');
  await editIssue(app, pub, b.number, p.writer, { state: 'closed' });
  assert.is((await close(pub, a.number)).response.status, 412, 'one still open');
  await editIssue(app, other, c.number, p.owner, { state: 'closed' });
  assert.is((await close(pub, a.number)).response.status, 201, 'closed dependencies stop blocking');
});

test('409: itself, a circle of two, twice', async () => {
  const a = await newIssue(app, pub, p.owner);
  const b = await newIssue(app, pub, p.owner);
  const self = await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: a.number });
  assert.is(self.response.status, 409);
  assertSpec('issueCreateIssueDependencies', self);
  assert.is((await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: b.number })).response.status, 201);
  assert.is((await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: b.number })).response.status, 409, 'twice');
  assert.is((await addLink(app, 'dependencies', pub, b.number, p.writer.auth, { index: a.number })).response.status, 409, 'circle');
});

test('403 a reader; 404 (no issue either side, another repository the caller cannot see, dependencies off); 401; 423', async () => {
  const a = await newIssue(app, pub, p.reader);
  const b = await newIssue(app, pub, p.reader);
  const f = await addLink(app, 'dependencies', pub, a.number, p.reader.auth, { index: b.number });
  assert.is(f.response.status, 403);
  assertSpec('issueCreateIssueDependencies', f);
  assert.is((await addLink(app, 'dependencies', pub, a.number, undefined, { index: b.number })).response.status, 401);
  assertEmpty404(await addLink(app, 'dependencies', pub, 99_999, p.writer.auth, { index: b.number }));
  assertEmpty404(await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: 99_999 }));
  assertEmpty404(await addLink(app, 'dependencies', pub, a.number, p.writer.auth, { index: 1, owner: p.owner.username, repo: 'no-such-repo' }));
  const priv = await sharedRepo(app, p, { private: true });
  const hidden = await newIssue(app, priv, p.owner);
  const stranger = await sharedRepo(app, { ...p, reader: p.outsider, writer: p.outsider });
  const mine = await newIssue(app, stranger, p.outsider);
  assertEmpty404(await addLink(app, 'dependencies', stranger, mine.number, p.outsider.auth, { index: hidden.number, owner: priv.owner.login, repo: priv.name }), 'cannot see the other repository');
  const off = await sharedRepo(app, p);
  const offIssue = await newIssue(app, off, p.owner);
  await editRepo(app, off, { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: false } });
  assertEmpty404(await addLink(app, 'dependencies', off, offIssue.number, p.owner.auth, { index: a.number, owner: pub.owner.login, repo: pub.name }), 'dependencies off');
  await editRepo(app, priv, { archived: true });
  const h2 = await newIssue(app, pub, p.owner);
  const arch = await addLink(app, 'dependencies', priv, hidden.number, p.owner.auth, { index: h2.number, owner: pub.owner.login, repo: pub.name });
  assert.is(arch.response.status, 423);
  assertSpec('issueCreateIssueDependencies', arch);
});

test.run();
