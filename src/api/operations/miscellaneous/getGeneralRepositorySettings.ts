import { toRepositorySettings } from '../../../convert/settings.js';
import type { Handler } from '../../types.js';

export const getGeneralRepositorySettings: Handler<'getGeneralRepositorySettings'> = async () => ({
  status: 200,
  body: toRepositorySettings(),
});
