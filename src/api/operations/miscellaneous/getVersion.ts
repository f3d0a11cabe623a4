import type { Handler } from '../../types.js';
import { serverVersion } from '../../../version.js';

export const getVersion: Handler<'getVersion'> = async () => ({ status: 200, body: { version: serverVersion } });
