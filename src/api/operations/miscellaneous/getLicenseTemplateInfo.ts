import { toLicenseTemplate } from '../../../convert/templates.js';
import { NotFound } from '../../../services/errors.js';
import { licenseTemplate } from '../../../templates/index.js';
import type { Handler } from '../../types.js';

export const getLicenseTemplateInfo: Handler<'getLicenseTemplateInfo'> = async (req) => {
  const found = licenseTemplate(req.path.name);
  if (!found) throw new NotFound();
  return { status: 200, body: toLicenseTemplate(req.config, req.path.name, found.text) };
};
