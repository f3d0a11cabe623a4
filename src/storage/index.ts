// The store of each kind of blob, as configured (Config.storage): one instance per kind and
// configuration, made on first use. The S3 client is loaded only when a kind is stored in S3.
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config, StorageKind, StorageSettings } from '../config.js';
import { LocalBlobStore, type BlobCheck, type BlobInfo, type BlobStore } from './blobStore.js';
import type { S3BlobStore } from './s3Store.js';

export type { BlobStore, BlobInfo, BlobCheck } from './blobStore.js';
export { LocalBlobStore, readSmall } from './blobStore.js';

/** Loads the S3 implementation on first use and passes every call on to it. */
class LazyS3Store implements BlobStore {
  readonly type = 'minio' as const;
  readonly serveDirect: boolean;
  private loading?: Promise<S3BlobStore>;

  constructor(private readonly settings: StorageSettings) {
    this.serveDirect = settings.serveDirect;
  }

  private store(): Promise<S3BlobStore> {
    this.loading ??= import('./s3Store.js').then(({ S3BlobStore }) => new S3BlobStore({
      endpoint: this.settings.minio.endpoint,
      accessKeyId: this.settings.minio.accessKeyId,
      secretAccessKey: this.settings.minio.secretAccessKey,
      bucket: this.settings.minio.bucket,
      location: this.settings.minio.location,
      useSsl: this.settings.minio.useSsl,
      basePath: this.settings.minio.basePath,
      serveDirect: this.settings.serveDirect,
    }));
    return this.loading;
  }

  async put(key: string, body: Readable, check?: BlobCheck): Promise<number> {
    return (await this.store()).put(key, body, check);
  }
  async putFile(key: string, path: string): Promise<void> {
    return (await this.store()).putFile(key, path);
  }
  async get(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined> {
    return (await this.store()).get(key, range);
  }
  async stat(key: string): Promise<BlobInfo | undefined> {
    return (await this.store()).stat(key);
  }
  async head(key: string, n?: number): Promise<Buffer> {
    return (await this.store()).head(key, n);
  }
  async remove(key: string): Promise<void> {
    return (await this.store()).remove(key);
  }
  async *list(under?: string): AsyncIterable<{ key: string; modified: Date }> {
    yield* (await this.store()).list(under);
  }
  async removeAll(under: string): Promise<void> {
    return (await this.store()).removeAll(under);
  }
  async directUrl(key: string, opts?: { filename?: string; expiresSeconds?: number }): Promise<string | undefined> {
    return (await this.store()).directUrl(key, opts);
  }
  async close(): Promise<void> {
    if (this.loading) (await this.loading).close();
  }
}

const made = new WeakMap<Config, Map<StorageKind, BlobStore>>();

/** The store of `kind` under `config` (the same instance on every call). */
export function storeFor(config: Config, kind: StorageKind): BlobStore {
  let stores = made.get(config);
  if (!stores) made.set(config, (stores = new Map()));
  let store = stores.get(kind);
  if (!store) {
    const settings = config.storage[kind];
    store = settings.type === 'minio' ? new LazyS3Store(settings) : new LocalBlobStore(settings.path || join(config.dataDir, kind));
    stores.set(kind, store);
  }
  return store;
}

/** Lets go of the S3 clients made under `config` (at shutdown). */
export async function closeStores(config: Config): Promise<void> {
  const stores = made.get(config);
  if (!stores) return;
  made.delete(config);
  for (const s of stores.values()) if (s instanceof LazyS3Store) await s.close().catch(() => {});
}
