import { toLabelTemplate } from '../../../convert/templates.js';
import { NotFound } from '../../../services/errors.js';
import { labelSet, labelSetNames } from '../../../templates/index.js';
import type { Handler } from '../../types.js';

export const getLabelTemplateInfo: Handler<'getLabelTemplateInfo'> = async (req) => {
  // Exact names, as Gitea; only a listed name reaches the file system.
  if (!labelSetNames.includes(req.path.name)) throw new NotFound();
  return { status: 200, body: labelSet(req.path.name).map(toLabelTemplate) };
};
