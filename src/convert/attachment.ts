import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
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
