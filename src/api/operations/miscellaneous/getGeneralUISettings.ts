import { toUISettings } from '../../../convert/settings.js';
import type { Handler } from '../../types.js';

export const getGeneralUISettings: Handler<'getGeneralUISettings'> = async () => ({
  status: 200,
  body: toUISettings(),
});
