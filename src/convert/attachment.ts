import type { components } from '../../generated/openapi.js';
import type { AttachmentConfig, Config } from '../config.js';
import type { AttachmentRow } from '../db/schema/index.js';
import { iso } from './time.js';

export function toAttachment(a: AttachmentRow, config: Config): components['schemas']['Attachment'] {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.downloadCount,
    created_at: iso(a.createdAt),
    uuid: a.uuid,
    browser_download_url: `${config.rootUrl}attachments/${a.uuid}`,
  };
}

/** GET /settings/attachment: max_size in MiB, as Gitea's `[attachment] MAX_SIZE`. */
export function toAttachmentSettings(a: AttachmentConfig): components['schemas']['GeneralAttachmentSettings'] {
  return { enabled: a.enabled, allowed_types: a.allowedTypes, max_size: a.maxSizeMiB, max_files: a.maxFiles };
}
