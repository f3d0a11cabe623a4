// Bytes per language (repoGetLanguages) as Gitea writes them: one JSON object, its keys in the order of
// the rows given (largest first).
import type { components } from '../../generated/openapi.js';
import type { RepoLanguageRow } from '../db/schema/index.js';

export function toLanguageStatistics(rows: Pick<RepoLanguageRow, 'language' | 'bytes'>[]): components['schemas']['LanguageStatistics'] {
  const out: Record<string, number> = {};
  for (const r of rows) out[r.language] = r.bytes;
  return out;
}
