// The streaming multipart reader on its own: any chunking of the body gives the same parts, limits hold,
// and no temporary file survives a refused body.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '../../src/api/errors.js';
import { discardUploads, readMultipart, type MultipartLimits } from '../../src/api/multipart.js';

const dir = mkdtempSync(join(tmpdir(), 'anvil-multipart-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const limits: MultipartLimits = { tmpDir: join(dir, 'tmp'), maxFileBytes: 4096, maxFiles: 2 };
const leftovers = () => {
  try {
    return readdirSync(limits.tmpDir);
  } catch {
    return [];
  }
};

const boundary = 'XyZ--boundary';
const part = (headers: string, body: Buffer | string) => Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
const close = Buffer.from(`--${boundary}--\r\n`);
const fileHeaders = (filename: string, name = 'attachment') => `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream`;

/** A fake Koa context whose request delivers `body` in the given chunk sizes. */
function ctxOf(body: Buffer, sizes: number[] = [body.length], headers: Record<string, string> = {}) {
  const chunks: Buffer[] = [];
  let at = 0;
  for (let i = 0; at < body.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length]!);
    chunks.push(body.subarray(at, at + n));
    at += n;
  }
  const req = Readable.from(chunks, { objectMode: false });
  const all: Record<string, string> = { 'content-type': `multipart/form-data; boundary="${boundary}"`, ...headers };
  return { req, get: (h: string) => all[h.toLowerCase()] ?? '' } as never;
}

async function refused(body: Buffer, status: number, headers: Record<string, string> = {}): Promise<string> {
  try {
    await readMultipart(ctxOf(body, [100], headers), limits);
  } catch (err) {
    assert.instance(err, HttpError);
    assert.is((err as HttpError).status, status, (err as Error).message);
    assert.equal(leftovers(), [], 'no temporary file left');
    return (err as Error).message;
  }
  assert.unreachable(`expected ${status}`);
  return '';
}

test('any chunking gives the same file and fields, even with boundary look-alikes in the file', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ maxLength: 3000 }),
      fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 8 }),
      async (raw, sizes) => {
        // Sprinkle partial delimiters into the content.
        const content = Buffer.concat([Buffer.from(`\r\n--${boundary.slice(0, 5)}`), Buffer.from(raw), Buffer.from(`\r\n--${boundary}x`.slice(0, -2))]);
        const body = Buffer.concat([Buffer.from('preamble\r\n'), part('Content-Disposition: form-data; name="note"', 'hello'), part(fileHeaders('a.bin'), content), close, Buffer.from('epilogue')]);
        const form = await readMultipart(ctxOf(body, sizes), limits);
        try {
          assert.is(form.fields.note, 'hello');
          const f = form.files.attachment!;
          assert.equal(readFileSync(f.path), content);
          assert.is(f.size, content.length);
          assert.equal(f.head, content.subarray(0, 512));
          assert.is(f.filename, 'a.bin');
        } finally {
          await discardUploads(form);
        }
      },
    ),
    { numRuns: 150 },
  );
  assert.equal(leftovers(), []);
});

test('file names: quoted Windows paths kept raw, RFC 5987 filename*, empty file name is a field; later files of a name skipped', async () => {
  const body = Buffer.concat([
    part(fileHeaders('C:\\dir\\x.txt'), 'one'),
    part(fileHeaders('second.txt'), 'two'),
    part(`Content-Disposition: form-data; name="utf"; filename="fallback.txt"; filename*=UTF-8''%C3%BCml.txt`, 'three'),
    part('Content-Disposition: form-data; name="empty"; filename=""', 'not a file'),
    close,
  ]);
  const form = await readMultipart(ctxOf(body), limits);
  assert.is(form.files.attachment!.filename, 'C:\\dir\\x.txt');
  assert.is(readFileSync(form.files.attachment!.path, 'utf8'), 'one');
  assert.is(form.files.utf!.filename, 'üml.txt');
  assert.is(form.fields.empty, 'not a file');
  await discardUploads(form);
  assert.equal(leftovers(), []);
});

test('no parts: an empty form, or a body that is not multipart', async () => {
  assert.equal(await readMultipart(ctxOf(close), limits), { fields: {}, files: {} });
  assert.equal(await readMultipart(ctxOf(Buffer.from('{}'), [2], { 'content-type': 'application/json' }), limits), { fields: {}, files: {} });
});

test('413: declared too large (nothing read), a file crossing the limit, too much field data', async () => {
  const big = Buffer.concat([part(fileHeaders('big.bin'), Buffer.alloc(4097)), close]);
  await refused(big, 413);
  await refused(Buffer.from(''), 413, { 'content-length': String(4096 + 64 * 1024 + 1) });
  const exact = await readMultipart(ctxOf(Buffer.concat([part(fileHeaders('max.bin'), Buffer.alloc(4096)), close])), limits);
  assert.is(exact.files.attachment!.size, 4096);
  await discardUploads(exact);
  await refused(Buffer.concat([part('Content-Disposition: form-data; name="f"', Buffer.alloc(65 * 1024, 97)), close]), 413);
});

test('422: malformed bodies, too many files', async () => {
  await refused(part(fileHeaders('a.txt'), 'no closing boundary'), 422);
  await refused(Buffer.concat([part('Content-Type: text/plain', 'no disposition'), close]), 422);
  await refused(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a"`), 422);
  await refused(Buffer.from('x'), 422, { 'content-type': 'multipart/form-data' });
  const three = Buffer.concat([part(fileHeaders('1', 'a'), '1'), part(fileHeaders('2', 'b'), '2'), part(fileHeaders('3', 'c'), '3'), close]);
  assert.match(await refused(three, 422), 'too many files');
});

test.run();
