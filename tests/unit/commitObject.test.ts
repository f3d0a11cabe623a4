// Commit objects written in-process are the ones `git commit-tree` writes for the same inputs, byte for
// byte (so the same ids), readable and fsck-clean; what git would clean up or write differently is
// handed back to git (undefined).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { signatureEnv, type Signature } from '../../src/git/commit.js';
import { writeCommit, writeCommitObject, type CommitObjectInput } from '../../src/git/commitObject.js';
import { readSshPrivateKey, sshSign } from '../../src/services/keys/sshsig.js';

let root: string;
let repo: string;
let tree: string;
let parent: string;
const git = (args: string[], opts: { env?: Record<string, string>; input?: string } = {}) =>
  execFileSync('git', args, { cwd: repo, env: { ...process.env, ...opts.env }, input: opts.input, stdio: ['pipe', 'pipe', 'pipe'] }).toString().trim();

test.before(() => {
  root = mkdtempSync(join(tmpdir(), 'anvil-commit-object-'));
  repo = join(root, 'r.git');
  execFileSync('git', ['init', '-q', '--bare', repo]);
  tree = git(['mktree'], { input: '' });
  const blob = git(['hash-object', '-w', '--stdin'], { input: 'x\n' });
  const withFile = git(['mktree'], { input: `100644 blob ${blob}\tx.txt\n` });
  const ann: Signature = { name: 'Ann', email: 'ann@example.com', date: new Date(1_700_000_000_000) };
  parent = git(['commit-tree', withFile, '-F', '-'], { env: signatureEnv(ann, ann), input: 'first\n' });
});
test.after(() => rmSync(root, { recursive: true, force: true }));

const byGit = (c: CommitObjectInput) =>
  git(['commit-tree', c.tree, ...c.parents.flatMap((p) => ['-p', p]), '-F', '-'], { env: signatureEnv(c.author, c.committer), input: c.message });

test('the same object as commit-tree: root and child commits, messages with and without a final newline, non-ASCII names', () => {
  const cases: CommitObjectInput[] = [
    { tree, parents: [], author: { name: 'Ann', email: 'ann@example.com', date: new Date(1_000) }, committer: { name: 'Bob B', email: 'b@x.org', date: new Date(2_000_000) }, message: 'one line' },
    { tree, parents: [parent], author: { name: 'Zoë Ünal', email: 'zoe@exämple.com', date: new Date(1_700_000_123_456) }, committer: { name: 'anvil', email: 'noreply@localhost', date: new Date(1_700_000_124_000) }, message: 'Title\n\nBody with 🎉 and trailing spaces   \n' },
    { tree, parents: [parent], author: { name: 'A (bot)1', email: 'a+tag@example.com' }, committer: { name: 'C', email: 'c@example.com' }, message: '' },
  ];
  for (const c of cases) {
    const fixed = { ...c, author: { ...c.author, date: c.author.date ?? new Date(5_000) }, committer: { ...c.committer, date: c.committer.date ?? new Date(5_000) } };
    const id = writeCommitObject(repo, fixed);
    assert.ok(id, 'written in-process');
    assert.is(id, byGit(fixed), `the id git gives: ${JSON.stringify(c.message)}`);
    assert.is(git(['cat-file', '-t', id!]), 'commit');
    const path = join(repo, 'objects', id!.slice(0, 2), id!.slice(2));
    assert.is(statSync(path).mode & 0o777, 0o444, 'read-only, as git writes loose objects');
  }
  assert.is(writeCommitObject(repo, { ...cases[1]!, author: { ...cases[1]!.author }, committer: { ...cases[1]!.committer } }), byGit(cases[1]!), 'written again: the same object');
  git(['fsck', '--no-progress', '--strict']);
});

test('handed to git: names and addresses git would clean up, SHA-256 and shared repositories', () => {
  const ok: CommitObjectInput = { tree, parents: [parent], author: { name: 'Ann', email: 'ann@example.com' }, committer: { name: 'Ann', email: 'ann@example.com' }, message: 'm' };
  for (const name of [' Ann', 'Ann.', 'A<n>n', 'Ann\nB', '"Ann"', 'Ann,', '']) {
    assert.is(writeCommitObject(repo, { ...ok, author: { ...ok.author, name } }), undefined, JSON.stringify(name));
  }
  assert.is(writeCommitObject(repo, { ...ok, committer: { ...ok.committer, email: '<ann@example.com>' } }), undefined);
  assert.is(writeCommitObject(repo, { ...ok, parents: ['a'.repeat(64)] }), undefined, 'a SHA-256 id');
  const shared = join(root, 'shared.git');
  execFileSync('git', ['init', '-q', '--bare', '--shared=group', shared]);
  assert.is(writeCommitObject(shared, ok), undefined, 'core.sharedRepository');
  const alt = join(root, 'alt.git');
  execFileSync('git', ['init', '-q', '--bare', alt]);
  writeFileSync(join(alt, 'objects', 'info', 'alternates'), `${join(repo, 'objects')}\n`);
  assert.is(writeCommitObject(alt, ok), undefined, 'objects/info/alternates');
  for (const [key, value] of [['commit.gpgSign', 'true'], ['i18n.commitEncoding', 'ISO-8859-1']] as const) {
    const other = join(root, `${key}.git`);
    execFileSync('git', ['init', '-q', '--bare', other]);
    execFileSync('git', ['config', key, value], { cwd: other });
    assert.is(writeCommitObject(other, ok), undefined, key);
  }
});

test('signed: a gpgsig header (gpgsig-sha256 in a SHA-256 repository) git verify-commit accepts, written in-process or through git; without it the commit is the unsigned one', async () => {
  const keyFile = join(root, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 't', '-f', keyFile]);
  const key = readSshPrivateKey(execFileSync('cat', [keyFile]).toString());
  const allowed = join(root, 'allowed_signers');
  writeFileSync(allowed, `signer@example.com ${execFileSync('cat', [`${keyFile}.pub`]).toString()}`);
  const sign = async (payload: string) => sshSign(key, Buffer.from(payload, 'utf8'));
  const sha256 = join(root, 'sha256.git');
  execFileSync('git', ['init', '-q', '--bare', '--object-format=sha256', sha256]);
  const tree256 = execFileSync('git', ['mktree'], { cwd: sha256, input: '' }).toString().trim();
  const at = (name: string): Signature => ({ name, email: 'ann@example.com', date: new Date(1_700_000_000_000) });
  const cases: Array<[string, CommitObjectInput, string]> = [
    [repo, { tree, parents: [parent], author: at('Ann'), committer: at('Ann'), message: 'Title\n\nBody\n' }, 'gpgsig'],
    [repo, { tree, parents: [parent], author: at('Ann.'), committer: at('Ann'), message: 'through git\n' }, 'gpgsig'],
    [sha256, { tree: tree256, parents: [], author: at('Ann'), committer: at('Ann'), message: 'sha256\n' }, 'gpgsig-sha256'],
  ];
  for (const [dir, c, header] of cases) {
    const id = await writeCommit(dir, { ...c, sign });
    const raw = execFileSync('git', ['cat-file', 'commit', id], { cwd: dir }).toString();
    assert.match(raw, new RegExp(`^${header} -----BEGIN SSH SIGNATURE-----\n( .*\n)+ -----END SSH SIGNATURE-----\n\n`, 'm'), header);
    execFileSync('git', ['-c', 'gpg.format=ssh', '-c', `gpg.ssh.allowedSignersFile=${allowed}`, 'verify-commit', id], { cwd: dir, stdio: 'pipe' });
    const unsigned = await writeCommit(dir, c);
    const plain = execFileSync('git', ['cat-file', 'commit', unsigned], { cwd: dir }).toString();
    assert.is(raw.replace(/^gpgsig(-sha256)? [^\n]*\n( [^\n]*\n)*/m, ''), plain, 'the signed text less its header is the unsigned commit');
    execFileSync('git', ['fsck', '--no-progress', '--strict'], { cwd: dir });
  }
  // A signature of other text is refused by git.
  const forged = await writeCommit(repo, { ...cases[0]![1], message: 'forged\n', sign: async () => sign('something else') });
  assert.throws(() => execFileSync('git', ['-c', 'gpg.format=ssh', '-c', `gpg.ssh.allowedSignersFile=${allowed}`, 'verify-commit', forged], { cwd: repo, stdio: 'pipe' }));
});

test.run();
