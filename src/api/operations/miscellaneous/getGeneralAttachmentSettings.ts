import { toAttachmentSettings } from '../../../convert/attachment.js';
import type { Handler } from '../../types.js';

export const getGeneralAttachmentSettings: Handler<'getGeneralAttachmentSettings'> = async (req) => ({
  status: 200,
  body: toAttachmentSettings(req.config.attachment),
});
