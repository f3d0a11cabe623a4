// What a kind's storage holds, whichever it is (the local folder or the S3 server of
// ANVIL_TEST_STORAGE=s3): tests of logs and artifacts read and look for blobs through it.
import { gunzipSync } from 'node:zlib';
import type { StorageKind } from '../../src/config.js';
import { readSmall, storeFor } from '../../src/storage/index.js';
import type { TestApp } from './harness.js';

/** The blob under `key`, whole (tests' blobs are small); undefined when there is none. */
export async function blob(app: TestApp, kind: StorageKind, key: string): Promise<Buffer | undefined> {
  const stream = await storeFor(app.config, kind).get(key);
  return stream ? readSmall(stream) : undefined;
}

export async function hasBlob(app: TestApp, kind: StorageKind, key: string): Promise<boolean> {
  return (await storeFor(app.config, kind).stat(key)) !== undefined;
}

/** Every key of a kind (under a folder). */
export async function blobKeys(app: TestApp, kind: StorageKind, under?: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of storeFor(app.config, kind).list(under)) keys.push(key);
  return keys.sort();
}

/** A stored task log's text (they are kept gzip'ed). */
export async function storedLog(app: TestApp, key: string): Promise<string | undefined> {
  const gz = await blob(app, 'actions_log', key);
  return gz && gunzipSync(gz).toString('utf8');
}
