import { toLicenseListEntry } from '../../../convert/templates.js';
import { licenseNames } from '../../../templates/index.js';
import type { Handler } from '../../types.js';

export const listLicenseTemplates: Handler<'listLicenseTemplates'> = async (req) => ({
  status: 200,
  body: licenseNames.map((key) => toLicenseListEntry(req.config, key)),
});
