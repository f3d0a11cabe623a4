// The git attributes of paths at a commit, as git itself reads `.gitattributes` files (every folder's,
// the deeper winning; patterns, macros and `-attr`/`!attr` as git has them). A bare repository has no
// work tree, and `check-attr --source` needs git 2.40, so the commit's `.gitattributes` blobs are put
// into a temporary index and `check-attr --cached` reads them from there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from './core.js';
import type { TreeEntry } from './objects.js';

/** An attribute's state: `true` (set), `false` (unset), its value, or absent (unspecified). */
export type AttributeValue = true | false | string;

/**
 * The attributes `names` of each of `paths`, given the commit's tree entries (only its `.gitattributes`
 * blobs are read). Paths without any of them are left out of the answer.
 */
export async function attributesAt(dir: string, entries: TreeEntry[], paths: string[], names: string[]): Promise<Map<string, Record<string, AttributeValue>>> {
  const out = new Map<string, Record<string, AttributeValue>>();
  const files = entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && (e.path === '.gitattributes' || e.path.endsWith('/.gitattributes')));
  if (!files.length || !paths.length) return out;
  const tmp = mkdtempSync(join(tmpdir(), 'anvil-attrs-'));
  const env = { GIT_INDEX_FILE: join(tmp, 'index') };
  try {
    await git(dir, ['update-index', '-z', '--index-info'], { env, stdin: files.map((f) => `100644 ${f.id}\t${f.path}\0`).join('') });
    const { stdout } = await git(dir, ['check-attr', '--cached', '-z', '--stdin', ...names], { env, stdin: paths.map((p) => `${p}\0`).join('') });
    const fields = stdout.split('\0');
    for (let i = 0; i + 2 < fields.length; i += 3) {
      const [path, name, value] = [fields[i]!, fields[i + 1]!, fields[i + 2]!];
      if (value === 'unspecified') continue;
      const attrs = out.get(path) ?? {};
      attrs[name] = value === 'set' ? true : value === 'unset' ? false : value;
      out.set(path, attrs);
    }
    return out;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
