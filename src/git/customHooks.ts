// A repository's custom server-side git hooks (Gitea's GitHook): the scripts the repository's administrators
// write through `…/hooks/git/{name}`, one per hook git runs on a push, kept where Gitea keeps them, in the
// repository's own folder: `hooks/<name>.d/<name>`. Every process sees the same file, and a repository
// moved, renamed or copied takes its hooks along. git itself never runs these files (it looks for
// `hooks/<name>`, which anvil never writes, and receive-pack is pointed at anvil's own hooks folder); anvil's
// hooks run them when the site enables git hooks (git/preReceive.ts, ANVIL_CUSTOM_HOOKS).
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The hooks a repository may have, in the order git runs them on a push (Gitea's list). */
export const customHookNames = ['pre-receive', 'update', 'post-receive'] as const;
export type CustomHookName = (typeof customHookNames)[number];

export const isCustomHookName = (name: string): name is CustomHookName => (customHookNames as readonly string[]).includes(name);

export interface CustomHook {
  name: CustomHookName;
  /** Whether the repository has the hook (its file exists). */
  isActive: boolean;
  /** The script, when active ('' otherwise). */
  content: string;
}

/** The file of a hook, relative to the repository's folder. */
export const customHookPath = (name: CustomHookName) => join('hooks', `${name}.d`, name);

/** One hook of the repository in folder `dir`. */
export function readCustomHook(dir: string, name: CustomHookName): CustomHook {
  try {
    return { name, isActive: true, content: readFileSync(join(dir, customHookPath(name)), 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { name, isActive: false, content: '' };
    throw err;
  }
}

export const readCustomHooks = (dir: string): CustomHook[] => customHookNames.map((name) => readCustomHook(dir, name));

/**
 * Writes a hook's script (executable; carriage returns dropped, as Gitea does) or, for content that is
 * empty or only white space, removes it. The new file arrives by rename: a push running the hook right now
 * runs the old script or the new one, never half of one.
 */
export function writeCustomHook(dir: string, name: CustomHookName, content: string): CustomHook {
  const file = join(dir, customHookPath(name));
  if (!content.trim()) {
    rmSync(file, { force: true });
    return { name, isActive: false, content: '' };
  }
  const text = content.replaceAll('\r', '');
  // Never recursive: a repository folder that is gone (deleted, or renamed meanwhile) is not made again here.
  for (const folder of [join(dir, 'hooks'), join(dir, 'hooks', `${name}.d`)]) {
    try {
      mkdirSync(folder);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o755 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return { name, isActive: true, content: text };
}

/** Copies every active hook of the repository in `from` to the one in `to` (template generation). */
export function copyCustomHooks(from: string, to: string): void {
  for (const hook of readCustomHooks(from)) if (hook.isActive) writeCustomHook(to, hook.name, hook.content);
}
