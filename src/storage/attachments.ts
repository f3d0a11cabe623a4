// Attachment and release-asset files, in the `attachments` store (Config.storage): keys
// `<uuid[0]>/<uuid[1]>/<uuid>`, as Gitea lays them out (locally `$DATA_DIR/attachments/…`). Uploads are
// spooled to `$DATA_DIR/tmp` by the multipart reader and moved in whole, so a file is either wholly in
// place or not there at all.
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { storeFor, type BlobStore } from './index.js';

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isAttachmentUuid = (uuid: string) => uuidShape.test(uuid);

/** The store key of an attachment. */
export function attachmentKey(uuid: string): string {
  // The uuid names a path: nothing but a well-formed one may reach the store.
  if (!isAttachmentUuid(uuid)) throw new Error(`not an attachment uuid: ${JSON.stringify(uuid)}`);
  return `${uuid[0]}/${uuid[1]}/${uuid}`;
}

export class AttachmentStorage {
  readonly store: BlobStore;

  constructor(private readonly config: Config) {
    this.store = storeFor(config, 'attachments');
  }

  /** Where uploads wait until they are accepted or refused. */
  get tmpDir(): string {
    return join(this.config.dataDir, 'tmp');
  }

  /** Moves an uploaded file into place. */
  async moveIn(from: string, uuid: string): Promise<void> {
    await this.store.putFile(attachmentKey(uuid), from);
  }

  /** The file's size, or undefined when it is missing. */
  async size(uuid: string): Promise<number | undefined> {
    return (await this.store.stat(attachmentKey(uuid)))?.size;
  }

  /** The first `n` bytes (fewer for a short or missing file), for content sniffing. */
  async head(uuid: string, n = 512): Promise<Buffer> {
    return this.store.head(attachmentKey(uuid), n);
  }

  /** The file, streamed; undefined when it is missing. */
  async read(uuid: string): Promise<Readable | undefined> {
    return this.store.get(attachmentKey(uuid));
  }

  /** A presigned URL to send the client to instead (SERVE_DIRECT), or undefined. */
  async directUrl(uuid: string, filename: string): Promise<string | undefined> {
    return this.store.directUrl(attachmentKey(uuid), { filename });
  }

  async remove(uuid: string): Promise<void> {
    await this.store.remove(attachmentKey(uuid));
  }
}
