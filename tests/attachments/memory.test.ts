// A 50 MB upload streams to disk: the server (in this process) grows by far less than the file, the file
// grows on disk while the body is still arriving, and nothing of the body stays in memory afterwards.
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import {
  attachmentWorld, filesUnder, newIssue, rawUpload, storedPath, tmpDir, until, uploadToIssue, writeBytes, type AttachmentWorld,
} from '../helpers/attachments.js';

const MB = 1024 * 1024;
let app: TestApp;
let w: AttachmentWorld;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

test.before(async () => {
  app = await startApp({ ATTACHMENT_MAX_SIZE: '100', ATTACHMENT_ALLOWED_TYPES: '*/*' });
  w = await attachmentWorld(app);
});
test.after(async () => {
  await app.close();
});

/** Bytes the process holds in JS objects and buffers, after a full collection. */
function retained(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Growth of `retained()` over `base`, polled: V8 frees buffer memory in the background after a collection. */
async function settledGrowth(base: number, below: number): Promise<number> {
  let growth = retained() - base;
  for (const end = Date.now() + 5000; growth >= below && Date.now() < end; growth = retained() - base) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return growth;
}

const tmpFileSize = () => {
  const [file] = filesUnder(tmpDir(app));
  try {
    return file ? statSync(file).size : 0;
  } catch {
    return 0; // moved meanwhile
  }
};

test('a 50 MB upload keeps memory growth under 30 MB, reaches the disk while it arrives and lands whole', async () => {
  const issue = await newIssue(app, w, w.owner);
  // Warm up every code path once, so the samples measure the upload and not first-time compilation.
  assert.is((await uploadToIssue(app, w, issue.number, { filename: 'warm.bin', content: new Uint8Array(MB) }, w.owner)).response.status, 201);

  const size = 50 * MB;
  const retainedBefore = retained();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  let answer;
  try {
    const up = rawUpload(app, `/repos/${w.path.owner}/${w.path.repo}/issues/${issue.number}/assets`, { auth: w.owner.auth, length: size, filename: 'big.bin' });
    up.req.write(up.head);
    await writeBytes(up.req, size / 2);
    // Half the body sent: most of it is on disk already, not waiting in memory.
    await until(() => tmpFileSize() >= size / 2 - 8 * MB, 'the first half of the upload to reach the temporary file');
    await writeBytes(up.req, size / 2);
    up.req.end(up.tail);
    answer = await up.response;
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  assert.is(answer.status, 201, answer.text);
  const a = JSON.parse(answer.text) as { uuid: string; size: number };
  assert.is(a.size, size);
  assert.is(statSync(storedPath(app, a.uuid)).size, size);
  assert.equal(filesUnder(tmpDir(app)), []);
  const growth = (peak - before) / MB;
  assert.ok(growth < 30, `rss grew by ${growth.toFixed(1)} MB (before ${(before / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB)`);
  const kept = (await settledGrowth(retainedBefore, 10 * MB)) / MB;
  assert.ok(kept < 10, `${kept.toFixed(1)} MB still held after the upload`);
});

test.run();
