import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { and, eq } from 'drizzle-orm';
import { actionSchedules, actionTriggers } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, roles, setArchived, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { messageOf, pathOf, raw, swaggerOf, userRepo, type Repository } from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type Body = components['schemas']['ApplyDiffPatchFileOptions'];

let app: TestApp;
let r: Roles;
let repo: Repository;
let priv: Repository;
let dir: string;
let first: string; // the initial commit
const logo = randomBytes(3000);
logo[10] = 0; // certainly binary

const modifyText = 'line 1\nline 2\nline 3\nline 4\nline 5\n';

test.before(async () => {
  app = await startApp({ MAX_BODY_SIZE: String(256 * 1024) });
  r = await roles(app);
  [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  dir = dirOf(app, repo);
  first = (await disk.tip(dir, 'main'))!;
  await disk.commit(dir, 'main', { 'keep.txt': 'keep\n', 'modify.txt': modifyText, 'delete.txt': 'bye\n', 'bin/logo.bin': logo });
  await disk.commit(dir, 'dev', { 'dev.txt': 'dev\n' }, { from: 'main' });
});
test.after(async () => {
  await app.close();
});

/** A patch made by the real git CLI in a temporary clone of `branch`: the staged changes, as `git diff` (or format-patch) prints them. */
async function makePatch(branch: string, changes: Record<string, string | Buffer | null>, opts: { binary?: boolean; formatPatch?: boolean; of?: string } = {}): Promise<string> {
  const parent = mkdtempSync(join(tmpdir(), 'anvil-patch-'));
  try {
    const work = join(parent, 'w');
    await disk.run(parent, ['clone', '--quiet', '--branch', branch, opts.of ?? dir, work]);
    for (const [path, content] of Object.entries(changes)) {
      const full = join(work, path);
      if (content === null) rmSync(full);
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
    }
    await disk.run(work, ['add', '-A']);
    const binary = opts.binary ? ['--binary'] : [];
    if (!opts.formatPatch) return await disk.run(work, ['diff', '--cached', ...binary]);
    await disk.run(work, ['commit', '--quiet', '-m', 'subject from the mail']);
    return await disk.run(work, ['format-patch', '-1', '--stdout', ...binary]);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

/** A hand-written patch adding one text file. */
const addFile = (path: string, text: string) =>
  `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${text}\n`;

const apply = (target: Repository, body: Body, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/diffpatch', { params: { path: pathOf(target) }, body });

type Answer = Awaited<ReturnType<typeof apply>>;

/** A 201: content null, the commit is the new tip of `branch` in git with `parent` as its only parent. */
async function committed(res: Answer, branch: string, parent: string, target = repo) {
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoApplyDiffPatch', res);
  const body = res.data!;
  const d = dirOf(app, target);
  const sha = body.commit.sha;
  assert.is(body.content, null);
  assert.is(await disk.tip(d, branch), sha, `the commit is the tip of ${branch}`);
  assert.equal(body.commit.parents.map((p) => p.sha), [parent]);
  assert.is((await disk.run(d, ['rev-parse', `${sha}^`])).trim(), parent);
  assert.equal(body.verification, { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' });
  return body.commit;
}

/** Author and committer lines of a commit in git: [name, email, unix seconds]. */
async function people(sha: string, d = dir) {
  const [an, ae, at, cn, ce, ct] = (await disk.run(d, ['log', '-1', '--format=%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct', sha])).trim().split('\0');
  return { author: [an, ae, Number(at)], committer: [cn, ce, Number(ct)] };
}

test('201: a multi-file patch (new, modified, deleted) on the default branch, by the caller, with the full commit', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const content = await makePatch('main', {
    'new/dir/added.txt': 'brand new\n',
    'modify.txt': modifyText.replace('line 3', 'line three'),
    'delete.txt': null,
  });
  assert.match(content, /new file mode/);
  assert.match(content, /deleted file mode/);
  const res = await apply(repo, { content }, r.writer.auth);
  const c = await committed(res, 'main', before);
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  const tree = (await disk.run(dir, ['rev-parse', `${c.sha}^{tree}`])).trim();
  const { committer } = await people(c.sha);
  const date = new Date(Number(committer[2]) * 1000).toISOString().replace('.000Z', 'Z');
  assert.equal(c, {
    url: `${api}/git/commits/${c.sha}`,
    sha: c.sha,
    created: date,
    html_url: `${app.config.rootUrl}${repo.full_name}/commit/${c.sha}`,
    author: { name: r.writer.username, email: r.writer.email, date },
    committer: { name: r.writer.username, email: r.writer.email, date },
    parents: [{ url: `${api}/git/commits/${before}`, sha: before, created: date }],
    message: 'apply-patch\n',
    tree: { url: `${api}/git/trees/${tree}`, sha: tree, created: date },
  });
  assert.is((await disk.run(dir, ['log', '-1', '--format=%B', c.sha])), 'apply-patch\n\n');
  assert.equal(await disk.files(dir, c.sha), ['README.md', 'bin/logo.bin', 'keep.txt', 'modify.txt', 'new/dir/added.txt']);
  assert.is((await disk.file(dir, c.sha, 'new/dir/added.txt')).toString(), 'brand new\n');
  assert.is((await disk.file(dir, c.sha, 'modify.txt')).toString(), 'line 1\nline 2\nline three\nline 4\nline 5\n');
  assert.is((await disk.file(dir, c.sha, 'keep.txt')).toString(), 'keep\n');
  assert.is((await disk.run(dir, ['fsck', '--strict', '--no-progress'])).trim(), '');
});

test('201: Actions: a default-branch patch without workflow files queues a trigger only while schedules are left to drop', async () => {
  const { db } = app.services.deps;
  const mainTriggers = async () => (await db.select().from(actionTriggers).where(and(eq(actionTriggers.repoId, repo.id), eq(actionTriggers.ref, 'refs/heads/main')))).length;
  let tip = (await disk.tip(dir, 'main'))!;
  await committed(await apply(repo, { content: addFile('no-actions-1.txt', 'a') }, r.writer.auth), 'main', tip);
  assert.is(await mainTriggers(), 0, 'no workflows, no schedules: nothing for Actions');
  // Schedules recorded from an earlier default-branch commit: this push must drop them (its trigger does).
  await db.insert(actionSchedules).values({ repoId: repo.id, workflowId: 'nightly.yml', workflowDir: '.gitea/workflows', cron: '0 0 * * *', ref: 'refs/heads/main', commitSha: first, triggerUserId: app.admin.id, next: new Date(Date.now() + 3600_000) });
  tip = (await disk.tip(dir, 'main'))!;
  await committed(await apply(repo, { content: addFile('no-actions-2.txt', 'b') }, r.writer.auth), 'main', tip);
  assert.is(await mainTriggers(), 1, 'a trigger to replace the schedules with none');
  await db.delete(actionTriggers).where(eq(actionTriggers.repoId, repo.id));
  await db.delete(actionSchedules).where(eq(actionSchedules.repoId, repo.id));
});

test('201: a binary patch (git diff --binary) modifies and adds binary files byte for byte', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const changed = Buffer.from(logo);
  changed.fill(7, 100, 200);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), randomBytes(2000)]);
  const content = await makePatch('main', { 'bin/logo.bin': changed, 'bin/new.png': png }, { binary: true });
  assert.match(content, /GIT binary patch/);
  const c = await committed(await apply(repo, { content, message: 'binary' }, r.owner.auth), 'main', before);
  assert.ok((await disk.file(dir, c.sha, 'bin/logo.bin')).equals(changed), 'modified binary');
  assert.ok((await disk.file(dir, c.sha, 'bin/new.png')).equals(png), 'added binary');
});

test('201: format-patch output and a plain unified diff apply too; the message is ours, not the mail subject', async () => {
  let before = (await disk.tip(dir, 'main'))!;
  const mail = await makePatch('main', { 'mail.txt': 'from a mail\n' }, { formatPatch: true });
  assert.match(mail, /^From [0-9a-f]+ /);
  let c = await committed(await apply(repo, { content: mail }, r.writer.auth), 'main', before);
  assert.is(c.message, 'apply-patch\n');
  assert.is((await disk.file(dir, c.sha, 'mail.txt')).toString(), 'from a mail\n');

  before = c.sha;
  const plain = '--- a/keep.txt\n+++ b/keep.txt\n@@ -1 +1,2 @@\n keep\n+kept\n';
  c = await committed(await apply(repo, { content: plain }, r.writer.auth), 'main', before);
  assert.is((await disk.file(dir, c.sha, 'keep.txt')).toString(), 'keep\nkept\n');
});

test('201: onto `branch`, and onto a new branch made from `branch` (which stays where it was)', async () => {
  const devTip = (await disk.tip(dir, 'dev'))!;
  const mainTip = (await disk.tip(dir, 'main'))!;
  const onDev = await committed(await apply(repo, { content: addFile('on-dev.txt', 'dev'), branch: 'dev' }, r.writer.auth), 'dev', devTip);
  assert.is(await disk.tip(dir, 'main'), mainTip, 'main untouched');
  assert.ok((await disk.files(dir, onDev.sha)).includes('dev.txt'));

  const res = await apply(repo, { content: addFile('topic.txt', 'topic'), branch: 'dev', new_branch: 'topic/one' }, r.writer.auth);
  const topic = await committed(res, 'topic/one', onDev.sha);
  assert.is(await disk.tip(dir, 'dev'), onDev.sha, 'dev untouched');
  assert.ok((await disk.files(dir, topic.sha)).includes('on-dev.txt'));

  const fromMain = await apply(repo, { content: addFile('from-main.txt', 'm'), new_branch: 'from-main' }, r.owner.auth);
  await committed(fromMain, 'from-main', mainTip);
  const same = await apply(repo, { content: addFile('same.txt', 's'), branch: 'dev', new_branch: 'dev' }, r.owner.auth);
  await committed(same, 'dev', onDev.sha);
  const branches = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...pathOf(repo), branch: 'topic/one' } } });
  assert.is(branches.data!.commit.id, topic.sha, 'the API sees the new branch');
});

test('201: force_push overwrites an existing new_branch with the patched base', async () => {
  await disk.commit(dir, 'scratch', { 'scratch.txt': 'old work' }, { from: 'dev' });
  const mainTip = (await disk.tip(dir, 'main'))!;
  const c = await committed(await apply(repo, { content: addFile('forced.txt', 'f'), new_branch: 'scratch', force_push: true }, r.writer.auth), 'scratch', mainTip);
  assert.not.ok((await disk.files(dir, c.sha)).includes('scratch.txt'));
});

test('201: author and committer — one given is used for both, none is the caller, empty ones count as none', async () => {
  const alice = { name: 'Alice Author', email: 'alice@example.com' };
  const carol = { name: 'Carol Committer', email: 'carol@example.com' };
  const me = [r.writer.username, r.writer.email];
  const cases: Array<[Partial<Body>, string[], string[]]> = [
    [{ author: alice }, [alice.name, alice.email], [alice.name, alice.email]],
    [{ committer: carol }, [carol.name, carol.email], [carol.name, carol.email]],
    [{ author: alice, committer: carol }, [alice.name, alice.email], [carol.name, carol.email]],
    [{}, me, me],
    [{ author: null, committer: null }, me, me],
    [{ author: { name: '', email: '' }, committer: { name: '', email: '' } }, me, me],
    [{ author: { name: '', email: '' }, committer: carol }, [carol.name, carol.email], [carol.name, carol.email]],
  ];
  for (const [opts, author, committer] of cases) {
    const before = (await disk.tip(dir, 'main'))!;
    const res = await apply(repo, { content: addFile(`who-${randomBytes(3).toString('hex')}.txt`, 'x'), ...opts }, r.writer.auth);
    const c = await committed(res, 'main', before);
    const label = JSON.stringify(opts);
    assert.equal([c.author.name, c.author.email], author, label);
    assert.equal([c.committer.name, c.committer.email], committer, label);
    const git = await people(c.sha);
    assert.equal(git.author.slice(0, 2), author, `${label} in git`);
    assert.equal(git.committer.slice(0, 2), committer, `${label} in git`);
  }
});

test('201: explicit dates, a message, and the Signed-off-by trailer of the committer', async () => {
  const before = (await disk.tip(dir, 'main'))!;
  const res = await apply(repo, {
    content: addFile('dated.txt', 'd'),
    message: 'Add dated.txt\n\nWith a body.',
    committer: { name: 'Carol Committer', email: 'carol@example.com' },
    author: { name: 'Alice Author', email: 'alice@example.com' },
    dates: { author: '2020-01-02T03:04:05Z', committer: '2021-06-07T08:09:10+02:00' },
    signoff: true,
  }, r.writer.auth);
  const c = await committed(res, 'main', before);
  assert.is(c.author.date, '2020-01-02T03:04:05Z');
  assert.is(c.committer.date, '2021-06-07T06:09:10Z');
  assert.is(c.created, '2021-06-07T06:09:10Z');
  const git = await people(c.sha);
  assert.is(git.author[2], Date.parse('2020-01-02T03:04:05Z') / 1000);
  assert.is(git.committer[2], Date.parse('2021-06-07T06:09:10Z') / 1000);
  const message = await disk.run(dir, ['cat-file', 'commit', c.sha]).then((t) => t.slice(t.indexOf('\n\n') + 2));
  assert.is(message, 'Add dated.txt\n\nWith a body.\n\nSigned-off-by: Carol Committer <carol@example.com>\n');
  assert.is(c.message, message);

  const plain = await apply(repo, { content: addFile('signed.txt', 's'), signoff: true }, r.owner.auth);
  const p = await committed(plain, 'main', c.sha);
  assert.is(p.message, `apply-patch\n\nSigned-off-by: ${r.owner.username} <${r.owner.email}>\n`);

  for (const message of ['', '   ', null]) {
    const tip = (await disk.tip(dir, 'main'))!;
    const m = await committed(await apply(repo, { content: addFile(`m-${randomBytes(3).toString('hex')}.txt`, 'm'), message }, r.owner.auth), 'main', tip);
    assert.is(m.message, 'apply-patch\n', JSON.stringify(message));
  }
});

test('201: writers, the owner and the site admin; a write:repository token; a private repository', async () => {
  for (const [auth, label] of [[r.writer.auth, 'writer'], [r.owner.auth, 'owner'], [r.admin.auth, 'site admin'],
    [await app.token(r.writer, ['write:repository']), 'token']] as const) {
    const before = (await disk.tip(dir, 'main'))!;
    await committed(await apply(repo, { content: addFile(`by-${label.replace(' ', '-')}.txt`, label) }, auth), 'main', before);
  }
  const p = dirOf(app, priv);
  const before = (await disk.tip(p, 'main'))!;
  await committed(await apply(priv, { content: addFile('private.txt', 'p') }, r.writer.auth), 'main', before, priv);
});

test('201: a sha256 repository', async () => {
  const sha256 = await userRepo(app, r.owner, { auto_init: true, object_format_name: 'sha256' });
  const d = dirOf(app, sha256);
  const before = (await disk.tip(d, 'main'))!;
  const content = await makePatch('main', { 'README.md': 'rewritten\n', 'b.bin': randomBytes(100) }, { binary: true, of: d });
  const c = await committed(await apply(sha256, { content }, r.owner.auth), 'main', before, sha256);
  assert.match(c.sha, /^[0-9a-f]{64}$/);
  assert.is((await disk.file(d, c.sha, 'README.md')).toString(), 'rewritten\n');
});

test('concurrency: 20 patches to one branch at once, each adding its own file — all committed, none lost, history linear', async () => {
  await disk.commit(dir, 'busy', { 'start.txt': 'start' }, { from: first });
  const base = (await disk.tip(dir, 'busy'))!;
  const baseCount = Number((await disk.run(dir, ['rev-list', '--count', base])).trim());
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => apply(repo, { content: addFile(`c/${i}.txt`, `file ${i}`), branch: 'busy' }, i % 2 ? r.writer.auth : r.owner.auth)),
  );
  const ok: number[] = [];
  answers.forEach((a, i) => {
    assertSpec('repoApplyDiffPatch', a);
    // The patches touch different files: each applies on whatever tip the others left, so none is refused.
    assert.is(a.response.status, 201, `request ${i}: ${a.response.status} ${JSON.stringify(a.error)}`);
    ok.push(i);
  });
  const tip = (await disk.tip(dir, 'busy'))!;
  assert.is((await disk.run(dir, ['rev-list', '--merges', tip])).trim(), '', 'no merge commits');
  assert.is(Number((await disk.run(dir, ['rev-list', '--count', tip])).trim()), baseCount + ok.length, 'one commit per 201');
  // One git call each for the history and the tree (a call per file would dominate this test's time).
  const added = new Map<string, string>(); // commit → the one path it adds
  for (const record of (await disk.run(dir, ['log', '--format=%x01%H', '--name-status', `${base}..${tip}`])).split('\x01').filter(Boolean)) {
    const [sha, ...changes] = record.trim().split('\n').filter(Boolean);
    assert.equal(changes.length, 1, `${sha} changes one file`);
    assert.match(changes[0]!, /^A\t/, `${sha} adds it`);
    added.set(sha!, changes[0]!.slice(2));
  }
  assert.is(added.size, ok.length);
  const blobs = new Map((await disk.run(dir, ['ls-tree', '-r', tip, 'c/'])).trim().split('\n').filter(Boolean).map((l) => {
    const [meta, path] = l.split('\t');
    return [path!, meta!.split(' ')[2]!] as const;
  }));
  const blobId = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex');
  for (const i of ok) {
    const sha = answers[i]!.data!.commit.sha;
    assert.is(added.get(sha), `c/${i}.txt`, `commit of request ${i} is reachable from the tip and adds its file`);
    assert.is(blobs.get(`c/${i}.txt`), blobId(`file ${i}\n`), `c/${i}.txt is at the tip with its content`);
  }
  assert.is(blobs.size, 20, 'all twenty files are at the tip');
});

test('401: anonymous callers and a wrong token', async () => {
  const before = await disk.tip(dir, 'main');
  for (const auth of [undefined, `token ${'0'.repeat(40)}`]) {
    const res = await apply(repo, { content: addFile('anon.txt', 'a') }, auth);
    assert.is(res.response.status, 401);
    assertSpec('repoApplyDiffPatch', res);
  }
  assert.is(await disk.tip(dir, 'main'), before);
});

test('403: readers, outsiders, and a token without write:repository', async () => {
  const before = await disk.tip(dir, 'main');
  for (const who of [r.reader, r.outsider]) {
    const res = await apply(repo, { content: addFile('no.txt', 'n') }, who.auth);
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoApplyDiffPatch', res);
    assert.equal(res.error, { message: 'user should have a permission to write to a repo', url: swaggerOf(app) });
  }
  const scoped = await apply(repo, { content: addFile('no.txt', 'n') }, await wrongScope(app, r.owner, true));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
  assert.is((await apply(priv, { content: addFile('no.txt', 'n') }, r.reader.auth)).response.status, 403, 'reader of a private repository');
  assert.is(await disk.tip(dir, 'main'), before);
});

test('404: `branch` does not exist; a private repository for outsiders; an unknown repository', async () => {
  for (const branch of ['nope', 'v-none/x']) {
    const res = await apply(repo, { content: addFile('x.txt', 'x'), branch, new_branch: `n-${branch}` }, r.writer.auth);
    assert.is(res.response.status, 404, branch);
    assertSpec('repoApplyDiffPatch', res);
    assert.is(res.error, undefined);
    assert.is(await disk.tip(dir, `n-${branch}`), undefined);
  }
  assert.is((await apply(priv, { content: addFile('x.txt', 'x') }, r.outsider.auth)).response.status, 404);
  assert.is((await apply({ full_name: `${r.owner.username}/nope` } as Repository, { content: addFile('x.txt', 'x') }, r.owner.auth)).response.status, 404);
  const empty = await userRepo(app, r.owner);
  const res = await apply(empty, { content: addFile('x.txt', 'x') }, r.owner.auth);
  assert.is(res.response.status, 404, 'an empty repository has no branch to patch');
});

test('422: new_branch exists already (without force_push)', async () => {
  const before = await disk.run(dir, ['for-each-ref']);
  for (const new_branch of ['dev', 'main']) {
    const res = await apply(repo, { content: addFile('exists.txt', 'e'), new_branch, branch: new_branch === 'main' ? 'dev' : 'main' }, r.writer.auth);
    assert.is(res.response.status, 422, new_branch);
    assertSpec('repoApplyDiffPatch', res);
    assert.match(messageOf(res.error), new RegExp(`branch already exists.*${new_branch}`));
  }
  assert.is(await disk.run(dir, ['for-each-ref']), before, 'no ref moved');
});

test('422: a patch that does not apply names git\'s reason, and changes nothing', async () => {
  const before = await disk.run(dir, ['for-each-ref']);
  const cases: Array<[string, RegExp]> = [
    ['--- a/modify.txt\n+++ b/modify.txt\n@@ -1,3 +1,3 @@\n nothing\n-like\n+this\n here\n', /patch does not apply.*(patch failed|does not apply)/],
    [addFile('keep.txt', 'again'), /already exists/],
    ['diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n', /gone\.txt/],
    ['this is not a patch at all', /No valid patches/i],
    ['', /No valid patches/i],
    [addFile('../outside.txt', 'evil'), /patch does not apply/],
    [addFile('.git/config', 'evil'), /patch does not apply/],
    ['diff --git a/bin/logo.bin b/bin/logo.bin\nindex 0000000..1111111 100644\nGIT binary patch\nliteral 1\nIcmZpY0000\n\n', /patch does not apply/],
  ];
  for (const [content, reason] of cases) {
    const res = await apply(repo, { content }, r.writer.auth);
    assert.is(res.response.status, 422, content);
    assertSpec('repoApplyDiffPatch', res);
    assert.match(messageOf(res.error), reason, content);
  }
  assert.is(await disk.run(dir, ['for-each-ref']), before, 'no ref moved');
  assert.not.ok(existsSync(join(dirname(dir), 'outside.txt')), 'nothing written beside the repository');
});

test('422: invalid branch names, a missing content, bad dates', async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ content: addFile('a.txt', 'a'), branch: 'a..b' }, /\[branch\]/],
    [{ content: addFile('a.txt', 'a'), new_branch: 'x.lock' }, /\[new_branch\]/],
    [{ content: addFile('a.txt', 'a'), new_branch: 'a b' }, /\[new_branch\]/],
    [{ content: addFile('a.txt', 'a'), new_branch: 'x'.repeat(101) }, /\[new_branch\]/],
    [{ content: addFile('a.txt', 'a'), dates: { author: 'yesterday' } }, /\[dates/],
    [{ content: addFile('a.txt', 'a'), author: { name: 'x', email: 'not an e-mail' } }, /\[author/],
    [{ branch: 'main' }, /^\[content\]: Required$/],
  ];
  for (const [body, pattern] of cases) {
    const res = await raw(app, 'POST', `/repos/${repo.full_name}/diffpatch`, { body: JSON.stringify(body), authorization: r.writer.auth });
    assert.is(res.response.status, 422, JSON.stringify(body));
    assertSpecAnswer('repoApplyDiffPatch', 422, res.body);
    assert.match(res.body.message, pattern, JSON.stringify(body));
  }
});

test('423: an archived repository', async () => {
  const archived = await repoFor(app, r);
  await setArchived(app, archived, r.owner);
  const before = await disk.tip(dirOf(app, archived), 'main');
  for (const who of [r.writer, r.owner, r.admin]) {
    const res = await apply(archived, { content: addFile('late.txt', 'l') }, who.auth);
    assert.is(res.response.status, 423, who.username);
    assertSpec('repoApplyDiffPatch', res);
    assert.equal(res.error, { message: 'repo is not allowed to edit', url: swaggerOf(app) });
  }
  assert.is(await disk.tip(dirOf(app, archived), 'main'), before);
});

test('400: a malformed JSON body; 413: a body over the size limit', async () => {
  const bad = await raw(app, 'POST', `/repos/${repo.full_name}/diffpatch`, { body: '{"content":', authorization: r.writer.auth });
  assert.is(bad.response.status, 400);
  assertSpecAnswer('repoApplyDiffPatch', 400, bad.body);
  const huge = JSON.stringify({ content: addFile('huge.txt', 'x'.repeat(300 * 1024)) });
  const tooLarge = await raw(app, 'POST', `/repos/${repo.full_name}/diffpatch`, { body: huge, authorization: r.writer.auth });
  assert.is(tooLarge.response.status, 413);
  assertSpecAnswer('repoApplyDiffPatch', 413, tooLarge.body);
});

test.run();
