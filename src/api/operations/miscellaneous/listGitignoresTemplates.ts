import { gitignoreNames } from '../../../templates/index.js';
import type { Handler } from '../../types.js';

export const listGitignoresTemplates: Handler<'listGitignoresTemplates'> = async () => ({ status: 200, body: [...gitignoreNames] });
