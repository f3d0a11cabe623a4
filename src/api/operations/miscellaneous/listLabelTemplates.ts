import { labelSetNames } from '../../../templates/index.js';
import type { Handler } from '../../types.js';

export const listLabelTemplates: Handler<'listLabelTemplates'> = async () => ({ status: 200, body: [...labelSetNames] });
