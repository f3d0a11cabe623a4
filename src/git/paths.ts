import { join } from 'node:path';

/** `$DATA_DIR/repositories/<owner>/<name>.git`, lower case: names are unique case-insensitively. */
export function repoDir(dataDir: string, owner: string, name: string): string {
  return join(dataDir, 'repositories', owner.toLowerCase(), `${name.toLowerCase()}.git`);
}

export function wikiDir(dataDir: string, owner: string, name: string): string {
  return join(dataDir, 'repositories', owner.toLowerCase(), `${name.toLowerCase()}.wiki.git`);
}
