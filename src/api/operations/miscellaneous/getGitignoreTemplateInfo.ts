import { toGitignoreTemplate } from '../../../convert/templates.js';
import { NotFound } from '../../../services/errors.js';
import { gitignore, gitignoreNames } from '../../../templates/index.js';
import type { Handler } from '../../types.js';

export const getGitignoreTemplateInfo: Handler<'getGitignoreTemplateInfo'> = async (req) => {
  // Only a listed name reaches the file system.
  if (!gitignoreNames.includes(req.path.name)) throw new NotFound();
  return { status: 200, body: toGitignoreTemplate(req.path.name, gitignore(req.path.name)) };
};
