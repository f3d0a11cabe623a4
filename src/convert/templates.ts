// The repository templates (.gitignore, licenses, label sets) as Gitea's API answers them.
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { LabelTemplate } from '../templates/index.js';

type S = components['schemas'];

/** Gitea's ImplementationText, the same for every license (for GitHub's API's sake). */
const implementation = 'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file.';

const licenseUrl = (config: Config, key: string) => `${config.rootUrl}api/v1/licenses/${encodeURIComponent(key)}`;

export const toGitignoreTemplate = (name: string, source: string): S['GitignoreTemplateInfo'] => ({ name, source });

/** Gitea names a license by its SPDX identifier in both `key` and `name`. */
export const toLicenseListEntry = (config: Config, key: string): S['LicensesTemplateListEntry'] => ({ key, name: key, url: licenseUrl(config, key) });

export const toLicenseTemplate = (config: Config, key: string, text: string): S['LicenseTemplateInfo'] => ({
  key,
  name: key,
  url: licenseUrl(config, key),
  implementation,
  body: text,
});

export const toLabelTemplate = (l: LabelTemplate): S['LabelTemplate'] => ({
  name: l.name,
  color: l.color.replace(/^#/, ''),
  description: l.description,
  exclusive: l.exclusive ?? false,
});
