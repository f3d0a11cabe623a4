import type { Handler } from '../../types.js';
import { createInOrg } from './createOrgRepo.js';

/** The route older Go SDKs call; the same operation as createOrgRepo. */
export const createOrgRepoDeprecated: Handler<'createOrgRepoDeprecated'> = createInOrg;
