// Avatars of users and organizations: an uploaded picture (checked, then kept as sent under
// `$DATA_DIR/avatars`), else a generated identicon. No database column: the file's presence is the
// state, so there is no transaction to hold across the file I/O.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema/index.js';
import { AvatarStorage } from '../../storage/avatars.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Invalid, PayloadTooLarge } from '../errors.js';
import { imageInfo, sniffImageType } from './avatarImage.js';
import { identicon } from './identicon.js';
import { isStdBase64 } from '../base64.js';

/** Gitea's AVATAR_MAX_FILE_SIZE, AVATAR_MAX_WIDTH and AVATAR_MAX_HEIGHT defaults. */
export const AVATAR_MAX_FILE_SIZE = 1024 * 1024;
export const AVATAR_MAX_DIMENSION = 4096;

export interface AvatarImage {
  bytes: Buffer;
  type: string;
  etag: string;
}

const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/**
 * Removes the uploaded picture of an account whose row is gone (deleted and committed: a rolled-back
 * delete keeps its picture). A file that cannot be removed is logged and left, never failing the delete:
 * the account is gone either way, and nothing serves the picture of an unknown id.
 */
export async function discardAvatar(deps: ServiceDeps, accountId: number): Promise<void> {
  try {
    await new AvatarStorage(deps.config).remove(accountId);
  } catch (err) {
    deps.log.warn({ err, accountId }, 'could not remove the uploaded avatar of a deleted account');
  }
}

/**
 * The picture of an avatar upload (users, organizations, repositories): standard base64 of a PNG, JPEG,
 * GIF or WebP within the limits. 413 when too large, 400 when not base64, 422 when not such a picture.
 */
export function decodeAvatarImage(image: string): Buffer {
  // Go's decoder ignores line breaks; so does this one.
  const text = image.replace(/[\r\n]/g, '');
  // The size first, from the length alone (base64 is four characters for three bytes, less the padding),
  // so an oversized upload is refused before anything scans it.
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (Math.floor((text.length * 3) / 4) - padding > AVATAR_MAX_FILE_SIZE) {
    throw new PayloadTooLarge(`image is larger than ${AVATAR_MAX_FILE_SIZE} bytes`);
  }
  if (!isStdBase64(text)) throw new BadRequest('image is not valid base64');
  const bytes = Buffer.from(text, 'base64');
  const info = imageInfo(bytes);
  if (!info) throw new Invalid('image must be a PNG, JPEG, GIF or WebP picture');
  if (info.width > AVATAR_MAX_DIMENSION || info.height > AVATAR_MAX_DIMENSION) {
    throw new Invalid(`image is ${info.width}x${info.height} pixels; at most ${AVATAR_MAX_DIMENSION}x${AVATAR_MAX_DIMENSION} are allowed`);
  }
  return bytes;
}

export class AvatarService {
  readonly storage: AvatarStorage;

  constructor(private readonly deps: ServiceDeps) {
    this.storage = new AvatarStorage(deps.config);
  }

  /** Checks `image` (see decodeAvatarImage) and makes it the account's avatar. */
  async upload(account: UserRow, image: string): Promise<void> {
    await this.storage.write(account.id, decodeAvatarImage(image));
  }

  async remove(account: UserRow): Promise<void> {
    await this.storage.remove(account.id);
  }

  /**
   * The picture behind `avatar_url` of the account with this id: its upload, else its identicon at `size`
   * pixels. Undefined for an unknown id. Avatars are public, as in Gitea, whatever the account's visibility.
   */
  async image(id: number, size: number): Promise<AvatarImage | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const [row] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.id, id));
    if (!row) return undefined;
    const stored = await this.storage.read(id);
    const type = stored && sniffImageType(stored.bytes);
    if (stored && type) return { bytes: stored.bytes, type, etag: etagOf(stored.bytes) };
    const bytes = identicon(id, size);
    return { bytes, type: 'image/png', etag: etagOf(bytes) };
  }
}
