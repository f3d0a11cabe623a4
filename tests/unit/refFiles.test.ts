// Refs read from a bare repository's files agree with git's for-each-ref and rev-parse, loose and packed,
// and hand back to git (undefined) whatever they are not sure of. Objects read by the long-lived
// cat-file reader: present, missing, written after it started, and a repository re-created in place.
// Refs written through git's lock protocol (createRef/moveRef without a git process): what git then
// reads, every refusal update-ref makes, and the cases handed to git (reflogs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeObjectReaders, readObjects } from '../../src/git/catFile.js';
import { readBlobs, readDir } from '../../src/git/objects.js';
import { readRef, readRefNames, readRefs } from '../../src/git/refFiles.js';
import { GitError } from '../../src/git/core.js';
import { createRef, moveRef, refTargets } from '../../src/git/refs.js';
import { writeRefFile } from '../../src/git/refWrite.js';

let root: string;
let bare: string;
const env = { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env }).toString().trim();
const forEachRef = () => {
  const out = new Map<string, string>();
  for (const l of git(bare, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/tags/').split('\n').filter(Boolean)) {
    out.set(l.slice(l.indexOf(' ') + 1), l.slice(0, l.indexOf(' ')));
  }
  return out;
};
let c1: string;
let c2: string;

function makeRepo(label = ''): void {
  bare = join(root, 'r.git');
  rmSync(bare, { recursive: true, force: true });
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  const work = mkdtempSync(join(root, 'w-'));
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'commit', '-q', '--allow-empty', '-m', `one${label}`);
  c1 = git(work, 'rev-parse', 'HEAD');
  git(work, 'commit', '-q', '--allow-empty', '-m', `two${label}`);
  c2 = git(work, 'rev-parse', 'HEAD');
  git(work, 'push', '-q', bare, 'main', `${c1}:refs/heads/old`, `${c1}:refs/heads/dir/a`);
  git(work, 'tag', '-a', '-m', 'annotated', 'v1', c1);
  git(work, 'push', '-q', bare, 'v1');
  rmSync(work, { recursive: true, force: true });
}

test.before(() => {
  root = mkdtempSync(join(tmpdir(), 'anvil-reffiles-'));
  makeRepo();
});
test.after(() => {
  closeObjectReaders();
  rmSync(root, { recursive: true, force: true });
});

test('loose refs: the same refs and objects as for-each-ref, in its order', async () => {
  const read = await readRefs(bare, ['refs/heads', 'refs/tags']);
  assert.equal([...read!], [...forEachRef()]);
  assert.equal([...(await readRefNames(bare, ['refs/heads', 'refs/tags']))!].sort(), [...forEachRef().keys()].sort());
  assert.is(read!.get('refs/heads/main'), c2);
  assert.is.not(read!.get('refs/tags/v1'), c1, 'an annotated tag names its tag object');
});

test('packed refs, a loose ref overriding its packed value, and a deleted one', async () => {
  git(bare, 'pack-refs', '--all');
  assert.equal([...(await readRefs(bare, ['refs/heads', 'refs/tags']))!], [...forEachRef()]);
  git(bare, 'update-ref', 'refs/heads/old', c2, c1); // loose again, over the packed line
  git(bare, 'update-ref', '-d', 'refs/heads/dir/a');
  const read = await readRefs(bare, ['refs/heads', 'refs/tags']);
  assert.equal([...read!], [...forEachRef()]);
  assert.equal([...(await readRefNames(bare, ['refs/heads', 'refs/tags']))!].sort(), [...forEachRef().keys()].sort());
  assert.is(read!.get('refs/heads/old'), c2);
  assert.is(read!.has('refs/heads/dir/a'), false);
  assert.is(await readRef(bare, 'refs/heads/old'), c2);
  assert.is(await readRef(bare, 'refs/tags/v1'), forEachRef().get('refs/tags/v1'));
  assert.is(await readRef(bare, 'refs/heads/nope'), null);
  assert.is(await readRef(bare, 'refs/heads/dir'), null, 'a directory of refs is not a ref');
});

test('lock files are not refs; a symbolic ref and revision syntax go to git', async () => {
  writeFileSync(join(bare, 'refs', 'heads', 'main.lock'), `${c1}\n`);
  assert.is((await readRefs(bare, ['refs/heads']))!.has('refs/heads/main.lock'), false);
  assert.is((await readRefNames(bare, ['refs/heads']))!.has('refs/heads/main.lock'), false);
  rmSync(join(bare, 'refs', 'heads', 'main.lock'));
  assert.is(await readRef(bare, 'HEAD'), undefined);
  assert.is(await readRef(bare, 'refs/heads/main^{commit}'), undefined);
  assert.is(await readRef(bare, 'refs/heads/../../config'), undefined);
  git(bare, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
  assert.is(await readRefs(bare, ['refs/heads']), undefined);
  // refTargets then asks git, which resolves the alias.
  assert.is((await refTargets(bare)).get('refs/heads/alias'), c2);
  git(bare, 'symbolic-ref', '--delete', 'refs/heads/alias');
});

test('cat-file reader: objects in order, missing ones undefined, new objects seen', async () => {
  const [a, missing, b] = await readObjects(bare, [c2, '0'.repeat(40), c1]);
  assert.is(a!.type, 'commit');
  assert.ok(a!.body.toString().includes('\n\ntwo\n'));
  assert.is(missing, undefined);
  assert.ok(b!.body.toString().includes('\n\none\n'));
  // An object written after the reader started (by another process) is found.
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: bare, input: 'fresh\n' }).toString().trim();
  const [fresh] = await readObjects(bare, [blob]);
  assert.is(fresh!.body.toString(), 'fresh\n');
  // Concurrent requests on one reader are answered in their own order.
  const many = await Promise.all([c1, c2, blob, c1].map((id) => readObjects(bare, [id])));
  assert.equal(many.map(([o]) => o!.type), ['commit', 'commit', 'blob', 'commit']);
});

test('cat-file reader: directories of a commit as ls-tree lists them, blobs by id, [] for a missing folder', async () => {
  const work = mkdtempSync(join(root, 'w-'));
  git(work, 'init', '-q', '-b', 'main');
  mkdirSync(join(work, '.gitea', 'workflows'), { recursive: true });
  writeFileSync(join(work, '.gitea', 'workflows', 'b.yml'), 'on: push\n');
  writeFileSync(join(work, '.gitea', 'workflows', 'a é.yaml'), 'on: [push]\n');
  writeFileSync(join(work, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  symlinkSync('run.sh', join(work, 'link'));
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'tree');
  git(work, 'push', '-q', bare, 'HEAD:refs/heads/trees');
  const commit = git(work, 'rev-parse', 'HEAD');
  rmSync(work, { recursive: true, force: true });
  for (const path of ['', '.gitea', '.gitea/workflows']) {
    const listed = git(bare, '-c', 'core.quotePath=false', 'ls-tree', commit, ...(path ? [`${path}/`] : [])).split('\n').filter(Boolean).map((l) => {
      const [meta, name] = l.split('\t');
      const [mode, type, id] = meta!.split(' ');
      return { mode, type, id, name: name!.slice(path ? path.length + 1 : 0) };
    });
    assert.equal(await readDir(bare, commit, path), listed, `the folder '${path}'`);
  }
  assert.equal(await readDir(bare, commit, '.github/workflows'), []);
  assert.equal(await readDir(bare, commit, 'run.sh'), [], 'a file is no folder');
  const entries = await readDir(bare, commit, '.gitea/workflows');
  assert.equal((await readBlobs(bare, entries.map((e) => e.id))).map(String), ['on: [push]\n', 'on: push\n']);
});

test('cat-file reader: a repository deleted and created again in place is read afresh', async () => {
  await readObjects(bare, [c2]);
  const before = c2;
  makeRepo(' again'); // other messages: other commit ids
  assert.is.not(c2, before);
  const [now] = await readObjects(bare, [c2]);
  assert.ok(now!.body.toString().includes('two again'));
  assert.is((await readObjects(bare, [before]))[0], undefined, 'the old repository\'s objects are gone');
});

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof GitError, `refused as update-ref refuses: ${String(err)}`);
};
const zero = '0'.repeat(40);
const noLocks = () => assert.equal(readdirSync(join(bare, 'refs', 'heads'), { recursive: true }).filter((f) => String(f).endsWith('.lock')), []);

test('ref writes: created and moved in place of update-ref, as git then reads them', async () => {
  makeRepo(' w');
  assert.is(await writeRefFile(bare, 'refs/heads/new/deep', c1, zero), true);
  assert.is(git(bare, 'rev-parse', 'refs/heads/new/deep'), c1);
  await moveRef(bare, 'refs/heads/new/deep', c2, c1);
  assert.is(git(bare, 'rev-parse', 'refs/heads/new/deep'), c2);
  await createRef(bare, 'refs/tags/light', c1);
  assert.is(git(bare, 'rev-parse', 'refs/tags/light'), c1);
  // A packed-only ref moves: the loose file now overrides its packed line, as git writes it.
  git(bare, 'pack-refs', '--all');
  await moveRef(bare, 'refs/heads/old', c2, c1);
  assert.is(git(bare, 'rev-parse', 'refs/heads/old'), c2);
  assert.equal([...(await readRefs(bare, ['refs/heads', 'refs/tags']))!], [...forEachRef()]);
  git(bare, 'fsck', '--no-progress');
  noLocks();
});

test('ref writes: every refusal of update-ref, with nothing changed and no lock left', async () => {
  makeRepo(' r');
  await refusal(createRef(bare, 'refs/heads/main', c1)); // exists (loose)
  git(bare, 'pack-refs', '--all');
  await refusal(createRef(bare, 'refs/heads/old', c2)); // exists (packed)
  await refusal(moveRef(bare, 'refs/heads/main', c1, c1)); // not at the expected value
  await refusal(moveRef(bare, 'refs/heads/gone', c1, c2)); // no such ref
  await refusal(createRef(bare, 'refs/heads/dir', c1)); // refs/heads/dir/a exists (packed)
  await refusal(createRef(bare, 'refs/heads/main/sub', c1)); // refs/heads/main exists (packed)
  git(bare, 'update-ref', 'refs/heads/loose/x', c1);
  await refusal(createRef(bare, 'refs/heads/loose', c1)); // a directory of loose refs
  await refusal(createRef(bare, 'refs/heads/loose/x/y', c1)); // a loose ref where a directory would be
  // Another writer holds the lock (a push in progress): refused, and its lock is left to it.
  writeFileSync(join(bare, 'refs', 'heads', 'main.lock'), '');
  await refusal(moveRef(bare, 'refs/heads/main', c1, c2));
  assert.ok(existsSync(join(bare, 'refs', 'heads', 'main.lock')));
  rmSync(join(bare, 'refs', 'heads', 'main.lock'));
  assert.is(git(bare, 'rev-parse', 'refs/heads/main'), c2);
  assert.is(git(bare, 'rev-parse', 'refs/heads/old'), c1);
  for (const ref of ['refs/heads/dir', 'refs/heads/gone', 'refs/heads/main/sub', 'refs/heads/loose', 'refs/heads/loose/x/y']) {
    assert.is(await readRef(bare, ref), null, `${ref} was not written`);
  }
  assert.is(git(bare, 'rev-parse', 'refs/heads/loose/x'), c1);
  noLocks();
});

test('ref writes: a repository keeping reflogs, a symbolic ref or an odd name is left to git', async () => {
  makeRepo(' g');
  git(bare, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
  assert.is(await writeRefFile(bare, 'refs/heads/alias', c1, c2), false);
  assert.is(await writeRefFile(bare, 'HEAD', c1, zero), false);
  assert.is(await writeRefFile(bare, 'refs/heads/a..b', c1, zero), false);
  git(bare, 'symbolic-ref', '--delete', 'refs/heads/alias');
  git(bare, 'config', 'core.logAllRefUpdates', 'true');
  assert.is(await writeRefFile(bare, 'refs/heads/logged', c1, zero), false);
  await createRef(bare, 'refs/heads/logged', c1); // through git, which keeps the log
  assert.ok(existsSync(join(bare, 'logs', 'refs', 'heads', 'logged')));
  noLocks();
});

test.run();
