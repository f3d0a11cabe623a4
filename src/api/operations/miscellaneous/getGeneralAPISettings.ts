import { toAPISettings } from '../../../convert/settings.js';
import type { Handler } from '../../types.js';

export const getGeneralAPISettings: Handler<'getGeneralAPISettings'> = async (req) => ({
  status: 200,
  body: toAPISettings(req.config),
});
