import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, roles, type Roles } from '../../helpers/gitFixtures.js';
import { newIssue } from '../../helpers/issues.js';
import { pullFixture } from '../../helpers/pulls.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let f: Awaited<ReturnType<typeof pullFixture>>;
let head: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  f = await pullFixture(app, r, { diverge: true });
  // The branch renames f.txt (from main), adds a binary file and changes its own a.txt.
  await disk.commit(f.dir, f.branch, {
    'f.txt': null,
    'moved.txt': 'base\n',
    'a.txt': '1\n  spaced\n',
    'bin.dat': Buffer.from([0, 1, 2, 255]),
  });
  head = (await disk.tip(f.dir, f.branch))!;
});
test.after(async () => {
  await app.close();
});

const list = (index: number, auth: string | undefined, query: Record<string, string | number> = {}, target = f) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/files', { params: { path: { ...target.repo.path, index }, query: query as never } });

test('200: every changed file with git\'s status and line counts, links at the head commit', async () => {
  const res = await list(f.pr.number, r.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetPullRequestFiles', res);
  const files = res.data!;
  const byName = Object.fromEntries(files.map((x) => [x.filename, x]));
  assert.equal(files.map((x) => x.filename), ['a.txt', 'b.txt', 'bin.dat', 'moved.txt'], 'git\'s order; the rename shows its new path');
  assert.equal([byName['a.txt']!.status, byName['a.txt']!.additions, byName['a.txt']!.deletions, byName['a.txt']!.changes], ['added', 2, 0, 2]);
  assert.equal([byName['moved.txt']!.status, byName['moved.txt']!.previous_filename], ['renamed', 'f.txt']);
  assert.equal([byName['bin.dat']!.status, byName['bin.dat']!.changes], ['added', 0]);
  assert.is(byName['b.txt']!.previous_filename, undefined);
  const base = `${app.url}/${f.repo.path.owner}/${f.repo.path.repo}`;
  assert.equal(
    [byName['a.txt']!.html_url, byName['a.txt']!.raw_url, byName['a.txt']!.contents_url],
    [`${base}/src/commit/${head}/a.txt`, `${base}/raw/commit/${head}/a.txt`, `${app.url}/api/v1/repos/${f.repo.path.owner}/${f.repo.path.repo}/contents/a.txt?ref=${head}`],
  );
  assert.is(res.response.headers.get('x-total-count'), '4');
  const anonymous = await list(f.pr.number, undefined);
  assert.equal(anonymous.data, files, 'anonymous callers of a public repository');
});

test('200: pages, skip-to, and whitespace=ignore-all counting', async () => {
  const page = await list(f.pr.number, r.reader.auth, { limit: 1, page: 2 });
  assert.equal(page.data!.map((x) => x.filename), ['b.txt']);
  assert.is(page.response.headers.get('x-total-count'), '4');
  assert.match(page.response.headers.get('link') ?? '', 'rel="next"');
  const skipped = await list(f.pr.number, r.reader.auth, { 'skip-to': 'bin.dat' });
  assert.equal(skipped.data!.map((x) => x.filename), ['bin.dat', 'moved.txt']);
  // README.md (from main) gains trailing spaces on its first line: one line changed, none when whitespace is ignored.
  const readme = (await disk.file(f.dir, f.branch, 'README.md')).toString('utf8').replace('\n', '   \n');
  await disk.commit(f.dir, f.branch, { 'README.md': readme });
  const all = await list(f.pr.number, r.reader.auth);
  const ignoring = await list(f.pr.number, r.reader.auth, { whitespace: 'ignore-all' });
  const edited = (l: typeof all) => l.data!.find((x) => x.filename === 'README.md')!;
  assert.equal([edited(all).status, edited(all).additions, edited(all).deletions], ['changed', 1, 1]);
  assert.equal([edited(ignoring).status, edited(ignoring).additions, edited(ignoring).deletions], ['unchanged', 0, 0]);
});

test('404: hidden repository, an issue\'s number, no such pull; 422 bad whitespace', async () => {
  const p = await pullFixture(app, r, { priv: true });
  assert.is((await list(p.pr.number, undefined, {}, p)).response.status, 404);
  assert.is((await list(p.pr.number, r.outsider.auth, {}, p)).response.status, 404);
  assert.is((await list(p.pr.number, r.reader.auth, {}, p)).response.status, 200);
  const issue = await newIssue(app, f.repo, r.reader);
  assert.is((await list(issue.number, r.reader.auth)).response.status, 404);
  assert.is((await list(999, r.reader.auth)).response.status, 404);
  assert.is((await list(f.pr.number, r.reader.auth, { whitespace: 'none' })).response.status, 422);
});

test.run();
