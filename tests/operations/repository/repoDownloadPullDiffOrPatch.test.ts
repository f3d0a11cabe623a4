import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, fetchRaw, roles, type Roles } from '../../helpers/gitFixtures.js';
import { newIssue } from '../../helpers/issues.js';
import { mergePull, pullFixture } from '../../helpers/pulls.js';

let app: TestApp;
let r: Roles;
let f: Awaited<ReturnType<typeof pullFixture>>;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  f = await pullFixture(app, r, { diverge: true });
  // A binary file on the head branch.
  await disk.commit(f.dir, f.branch, { 'bin.dat': Buffer.from([0, 1, 2, 3, 255, 0, 7]) });
});
test.after(async () => {
  await app.close();
});

const url = (target: typeof f, index: number, kind: string, query = '') => `/repos/${target.repo.path.owner}/${target.repo.path.repo}/pulls/${index}.${kind}${query}`;

async function getVerbatim(_: TestApp, path: string, auth?: string) {
  const res = await fetchRaw(app, path, auth);
  return { status: res.status, body: res.bytes.toString('utf8'), type: res.headers.get('content-type') ?? '' };
}

test('200 .diff: git\'s diff from the merge base to the head, as plain text, for readers and anonymous callers', async () => {
  const head = (await disk.tip(f.dir, f.branch))!;
  const expected = await disk.run(f.dir, ['diff', '-M', (await disk.run(f.dir, ['merge-base', 'main', head])).trim(), head]);
  for (const auth of [r.reader.auth, undefined]) {
    const res = await getVerbatim(app, url(f, f.pr.number, 'diff'), auth);
    assert.is(res.status, 200);
    assert.is(res.body, expected);
  }
  assert.match(expected, 'Binary files /dev/null and b/bin.dat differ');
  const binary = await getVerbatim(app, url(f, f.pr.number, 'diff', '?binary=true'), r.reader.auth);
  assert.match(binary.body, 'GIT binary patch');
  assert.match(binary.type, 'text/plain');
});

test('200 .patch: the head\'s commits as format-patch mails, oldest first', async () => {
  const head = (await disk.tip(f.dir, f.branch))!;
  const mergeBase = (await disk.run(f.dir, ['merge-base', 'main', head])).trim();
  const res = await getVerbatim(app, url(f, f.pr.number, 'patch'), r.reader.auth);
  assert.is(res.status, 200);
  assert.is(res.body, await disk.run(f.dir, ['format-patch', '--no-signature', '--stdout', '--no-binary', `${mergeBase}..${head}`]));
  assert.ok(res.body.indexOf('Subject: [PATCH 1/3]') < res.body.indexOf('Subject: [PATCH 3/3]'));
});

test('200: a merged pull request still shows what it brought', async () => {
  const g = await pullFixture(app, r, { diverge: true });
  const before = await getVerbatim(app, url(g, g.pr.number, 'diff'), r.reader.auth);
  const merged = await mergePull(app, g.repo, r.writer.auth, g.pr.number, { Do: 'squash' });
  assert.is(merged.response.status, 200);
  const after = await getVerbatim(app, url(g, g.pr.number, 'diff'), r.reader.auth);
  assert.is(after.body, before.body);
  assert.match(after.body, '+++ b/a.txt');
});

test('404: private repository for anonymous callers and outsiders, an issue\'s number, no such pull; 422 unknown kind', async () => {
  const p = await pullFixture(app, r, { priv: true });
  assert.is((await getVerbatim(app, url(p, p.pr.number, 'diff'))).status, 404);
  assert.is((await getVerbatim(app, url(p, p.pr.number, 'patch'), r.outsider.auth)).status, 404);
  assert.is((await getVerbatim(app, url(p, p.pr.number, 'diff'), r.reader.auth)).status, 200);
  const issue = await newIssue(app, f.repo, r.reader);
  assert.is((await getVerbatim(app, url(f, issue.number, 'diff'), r.reader.auth)).status, 404);
  assert.is((await getVerbatim(app, url(f, 999, 'diff'), r.reader.auth)).status, 404);
  assert.is((await getVerbatim(app, url(f, f.pr.number, 'txt'), r.reader.auth)).status, 422);
});

test.run();
