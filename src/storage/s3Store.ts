// S3-compatible object storage (Gitea's `minio` STORAGE_TYPE): MinIO, AWS S3 and the like, through
// @aws-sdk/client-s3. Uploads stream as multipart uploads (@aws-sdk/lib-storage), so no blob is held
// whole in memory; an upload that fails or is refused midway is aborted and leaves no object. Downloads
// stream, or are presigned URLs when SERVE_DIRECT is on. The bucket is made on first use when missing.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import {
  CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { checkKey, checking, type BlobCheck, type BlobInfo, type BlobStore } from './blobStore.js';

export interface S3Settings {
  /** MINIO_ENDPOINT: host[:port], as Gitea's. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** MINIO_LOCATION (region). */
  location: string;
  useSsl: boolean;
  /** MINIO_BASE_PATH: prefix of every key of this kind (`lfs/`, `attachments/`, …). */
  basePath: string;
  serveDirect: boolean;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

export class S3BlobStore implements BlobStore {
  readonly type = 'minio' as const;
  readonly serveDirect: boolean;
  private readonly client: S3Client;
  private bucketReady?: Promise<void>;

  constructor(private readonly settings: S3Settings) {
    this.serveDirect = settings.serveDirect;
    const endpoint = /^https?:\/\//.test(settings.endpoint) ? settings.endpoint : `${settings.useSsl ? 'https' : 'http'}://${settings.endpoint}`;
    this.client = new S3Client({
      endpoint,
      region: settings.location || 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums on every request are newer than many S3-compatible servers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    const base = this.settings.basePath.replace(/^\/+/, '');
    return `${base && !base.endsWith('/') ? `${base}/` : base}${checkKey(key)}`;
  }

  private ready(): Promise<void> {
    this.bucketReady ??= (async () => {
      const Bucket = this.settings.bucket;
      try {
        await this.client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        if (!notFound(err)) throw err;
        await this.client.send(new CreateBucketCommand({ Bucket })).catch((e: { name?: string }) => {
          if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
        });
      }
    })().catch((err) => {
      this.bucketReady = undefined;
      throw err;
    });
    return this.bucketReady;
  }

  async put(key: string, body: Readable, check?: BlobCheck): Promise<number> {
    await this.ready();
    const counter = checking(check);
    const through = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: through },
      queueSize: 2,
      partSize: 8 * 1024 * 1024,
      leavePartsOnError: false,
    });
    const feeding = pipeline(body, counter, through);
    try {
      await Promise.all([feeding, upload.done()]);
    } catch (err) {
      // A body that failed or was refused never ended: no object was completed (a multipart upload is
      // aborted, a single-part one never sent), so an object already under this key is left as it was.
      await upload.abort().catch(() => {});
      through.destroy();
      throw err;
    }
    return counter.bytes;
  }

  async putFile(key: string, path: string): Promise<void> {
    await this.put(key, createReadStream(path));
    await rm(path, { force: true });
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined> {
    await this.ready();
    try {
      const out = await this.client.send(new GetObjectCommand({
        Bucket: this.settings.bucket, Key: this.objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
      }));
      return out.Body as Readable;
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    await this.ready();
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return { size: out.ContentLength ?? 0, modified: out.LastModified ?? new Date(0) };
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async head(key: string, n = 512): Promise<Buffer> {
    const info = await this.stat(key);
    if (!info || info.size === 0) return Buffer.alloc(0);
    const stream = await this.get(key, { start: 0, end: Math.min(n, info.size) - 1 });
    if (!stream) return Buffer.alloc(0);
    const parts: Buffer[] = [];
    for await (const chunk of stream) parts.push(chunk as Buffer);
    return Buffer.concat(parts).subarray(0, n);
  }

  async remove(key: string): Promise<void> {
    await this.ready();
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async removeAll(under: string): Promise<void> {
    const keys: string[] = [];
    for await (const { key } of this.list(under)) keys.push(key);
    for (const key of keys) await this.remove(key);
  }

  async *list(under?: string): AsyncIterable<{ key: string; modified: Date }> {
    await this.ready();
    const base = this.objectKey('x').slice(0, -1);
    const prefix = under ? `${this.objectKey(under)}/` : base;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { key: o.Key.slice(base.length), modified: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async directUrl(key: string, opts: { filename?: string; expiresSeconds?: number } = {}): Promise<string | undefined> {
    if (!this.serveDirect) return undefined;
    await this.ready();
    const disposition = opts.filename ? `attachment; filename="${opts.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"` : undefined;
    return getSignedUrl(this.client, new GetObjectCommand({
      Bucket: this.settings.bucket, Key: this.objectKey(key), ResponseContentDisposition: disposition,
    }), { expiresIn: opts.expiresSeconds ?? 300 });
  }

  close(): void {
    this.client.destroy();
  }
}
