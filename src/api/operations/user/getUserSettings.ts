import { toUserSettings } from '../../../convert/user.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const getUserSettings: Handler<'getUserSettings'> = async (req) => ({ status: 200, body: toUserSettings(actorOf(req)) });
