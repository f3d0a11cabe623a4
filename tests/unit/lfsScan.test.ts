// git/lfsScan.ts: the LFS pointers a repository's refs reach, read from git a batch of blobs at a time (a
// hostile source's millions of small blobs never in one buffer); every pointer is found across batches.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { git } from '../../src/git/core.js';
import { blobsPerRead, reachablePointers } from '../../src/git/lfsScan.js';

const pointer = (n: number) => {
  const oid = n.toString(16).padStart(64, '0');
  return { oid, size: n + 1, text: `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${n + 1}\n` };
};

test('more pointers than one read takes: all found, each once; other small blobs are not pointers', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lfs-scan-'));
  try {
    await git(dir, ['init', '--bare', '-q']);
    const count = blobsPerRead * 2 + 7;
    const lines: string[] = ['commit refs/heads/main', 'committer T <t@example.com> 0 +0000', 'data 1', 'x'];
    const blob = (path: string, text: string) => lines.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(text)}`, text);
    for (let i = 1; i <= count; i++) blob(`p${i}.bin`, pointer(i).text);
    blob('again.bin', pointer(1).text);
    blob('plain.txt', 'not a pointer, but long enough to be read as a candidate: '.repeat(3));
    await git(dir, ['fast-import', '--quiet'], { stdin: `${lines.join('\n')}\n` });
    const found = await reachablePointers(dir);
    assert.is(found.length, count);
    assert.equal(new Set(found.map((f) => f.oid)).size, count);
    assert.equal(found.find((f) => f.oid === pointer(count).oid), { oid: pointer(count).oid, size: count + 1 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
