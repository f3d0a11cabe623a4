// Code search hits (#41, anvil's own operation) → CodeSearchHit.
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { CodeHit } from '../services/search/codeSearch.js';
import { repoUrls } from './repo.js';

export function toCodeSearchHit(config: Config, h: CodeHit): components['schemas']['CodeSearchHit'] {
  const urls = repoUrls(config, h.owner.name, h.repo.name);
  const path = h.path.split('/').map(encodeURIComponent).join('/');
  return {
    repository: { id: h.repo.id, name: h.repo.name, full_name: `${h.owner.name}/${h.repo.name}`, owner: h.owner.name, html_url: urls.html },
    path: h.path,
    sha: h.blob,
    language: h.language,
    html_url: `${urls.html}/src/branch/${h.repo.defaultBranch.split('/').map(encodeURIComponent).join('/')}/${path}`,
    matches: h.matches.map((m) => ({ line: m.line, fragment: m.fragment })),
  };
}
