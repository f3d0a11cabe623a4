// Byte-range checks of a file download (`…/raw/…`, `…/media/…`): the answers src/api/ranges.ts gives, for
// any file `content` served at `url` with validator `etag`. Shared by the raw and media operation tests and
// the S3 storage test, so that every storage and every kind of file is held to the same cases.
import * as assert from 'uvu/assert';

export async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(url, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Asserts the range answers of `url`, whose whole body is `content` (at least 10 bytes) and ETag `etag`. */
export async function assertRanges(url: string, content: Buffer, etag: string, auth: Record<string, string> = {}): Promise<void> {
  const size = content.length;
  const whole = await get(url, auth);
  assert.is(whole.status, 200);
  assert.ok(whole.bytes.equals(content), 'the whole file');
  assert.is(whole.headers.get('accept-ranges'), 'bytes');
  assert.is(whole.headers.get('etag'), etag);
  assert.is(whole.headers.get('content-length'), String(size));

  const partial = async (range: string, start: number, end: number, extra: Record<string, string> = {}) => {
    const res = await get(url, { ...auth, ...extra, Range: range });
    assert.is(res.status, 206, `${range}: ${res.status} ${res.bytes.subarray(0, 100).toString()}`);
    assert.is(res.headers.get('content-range'), `bytes ${start}-${end}/${size}`, range);
    assert.is(res.headers.get('content-length'), String(end - start + 1), range);
    assert.is(res.headers.get('etag'), etag, range);
    assert.ok(res.bytes.equals(content.subarray(start, end + 1)), `${range}: the bytes of the range`);
  };
  await partial('bytes=0-0', 0, 0);
  await partial('bytes=3-9', 3, 9);
  await partial(`bytes=${size - 5}-`, size - 5, size - 1);
  await partial(`bytes=2-${size + 1000}`, 2, size - 1);
  await partial('bytes=-4', size - 4, size - 1);
  await partial(`bytes=-${size + 10}`, 0, size - 1);
  await partial('bytes=1-2', 1, 2, { 'If-Range': etag });

  // If-Range naming another version: the whole file, 200.
  const stale = await get(url, { ...auth, Range: 'bytes=1-2', 'If-Range': '"0000"' });
  assert.is(stale.status, 200, 'a stale If-Range');
  assert.ok(stale.bytes.equals(content));
  // Not a bytes range: the whole file.
  assert.is((await get(url, { ...auth, Range: 'lines=1-2' })).status, 200, 'another unit');

  for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 9}`, 'bytes=x-3', 'bytes=-0']) {
    const res = await get(url, { ...auth, Range: range });
    assert.is(res.status, 416, range);
    assert.is(res.headers.get('content-range'), `bytes */${size}`, range);
  }
  for (const range of ['bytes=5-2', 'bytes=1-x', 'bytes=0-1,4-5', 'bytes=3']) {
    assert.is((await get(url, { ...auth, Range: range })).status, 400, range);
  }

  const cached = await get(url, { ...auth, 'If-None-Match': etag });
  assert.is(cached.status, 304, 'If-None-Match naming the ETag');
  assert.is(cached.bytes.length, 0);
  assert.is(cached.headers.get('etag'), etag);
  assert.is((await get(url, { ...auth, 'If-None-Match': '"other"' })).status, 200, 'If-None-Match naming another ETag');
}
