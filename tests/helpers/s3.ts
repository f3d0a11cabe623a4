// A local S3-compatible server for the tests (s3rver, pure JavaScript) on 127.0.0.1, and the settings
// that put every kind of blob in it. `ANVIL_TEST_STORAGE=s3` makes startApp use one for the whole file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface LocalS3 {
  endpoint: string;
  /** STORAGE_* settings that store every kind in this server (a bucket of its own). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3(): Promise<LocalS3> {
  const { default: S3rver } = await import('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 'anvil-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      STORAGE_TYPE: 'minio',
      STORAGE_MINIO_ENDPOINT: endpoint,
      STORAGE_MINIO_ACCESS_KEY_ID: 'S3RVER',
      STORAGE_MINIO_SECRET_ACCESS_KEY: 'S3RVER',
      STORAGE_MINIO_BUCKET: `anvil-${randomBytes(4).toString('hex')}`,
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
