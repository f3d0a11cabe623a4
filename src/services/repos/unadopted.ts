// Unadopted repositories: folders `<owner>/<name>.git` in the repository root that no repository row owns
// (left by a restore, a crash or a copy). An administrator lists them, adopts one (the row is made from
// what the folder holds) or deletes the folder. Folder I/O and git happen outside any transaction.
import { rmSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { collaborations, repoWatches, repositories, users, type ObjectFormat, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { git } from '../../git/core.js';
import { repoDir } from '../../git/paths.js';
import { listBranches, setHead } from '../../git/refs.js';
import { folderSize } from '../../git/size.js';
import type { ServiceDeps } from '../context.js';
import { NotFound, isUniqueViolation } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { checkRepoName } from '../names.js';
import type { AccessService } from './access.js';

/** A glob as Gitea's (gobwas/glob, no separators): `*`, `?`, `[abc]`/`[!abc]`/`[a-z]`, `{a,b}`, `\x`; undefined when invalid. */
export function globToRegExp(glob: string): RegExp | undefined {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      if (i + 1 >= glob.length) return undefined;
      out += escape(glob[++i]!);
    } else if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) return undefined;
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith('!');
      if (negated) body = body.slice(1);
      if (!body) return undefined;
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (c === '{') { out += '(?:'; depth++; }
    else if (c === '}') { if (!depth) return undefined; out += ')'; depth--; }
    else if (c === ',' && depth) out += '|';
    else out += escape(c);
  }
  if (depth) return undefined;
  try {
    return new RegExp(`^${out}$`, 's');
  } catch {
    return undefined;
  }
}
const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function usableName(name: string): boolean {
  try {
    checkRepoName(name);
    return true;
  } catch {
    return false;
  }
}

async function dirNames(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
    throw err;
  });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

export class UnadoptedService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  /** The matching unadopted repositories as `owner/name`, in folder order, one page of them, and how many match. */
  async list(pattern: string, page: { offset: number; limit: number }): Promise<{ names: string[]; total: number }> {
    const [ownerGlob, repoGlob] = pattern ? [pattern.split('/')[0]!, pattern.includes('/') ? pattern.slice(pattern.indexOf('/') + 1) : '*'] : ['*', '*'];
    const any = /^/;
    const ownerRe = globToRegExp(ownerGlob) ?? any;
    const repoRe = globToRegExp(repoGlob) ?? any;
    const root = join(this.deps.config.dataDir, 'repositories');
    const found: string[] = [];
    for (const ownerFolder of await dirNames(root)) {
      if (!ownerRe.test(ownerFolder)) continue;
      const names = (await dirNames(join(root, ownerFolder)))
        .filter((f) => f.endsWith('.git'))
        .map((f) => f.slice(0, -4))
        .filter((n) => usableName(n) && n.toLowerCase() === n && repoRe.test(n));
      if (!names.length) continue;
      const [owner] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.lowerName, ownerFolder));
      if (!owner) continue; // a folder of an account that does not exist: Gitea leaves it out
      const rows = await this.deps.db
        .select({ lowerName: repositories.lowerName })
        .from(repositories)
        .where(and(eq(repositories.ownerId, owner.id), inArray(repositories.lowerName, names)));
      const owned = new Set(rows.map((r) => r.lowerName));
      for (const n of names) if (!owned.has(n)) found.push(`${ownerFolder}/${n}`);
    }
    return { names: found.slice(page.offset, page.offset + page.limit), total: found.length };
  }

  /** The owner and folder of an unadopted repository; 404 when either is missing or a row owns the name. */
  private async target(ownerName: string, name: string): Promise<{ owner: UserRow; dir: string }> {
    const [owner] = await this.deps.db.select().from(users).where(eq(users.lowerName, ownerName.toLowerCase()));
    if (!owner || !usableName(name)) throw new NotFound();
    const [row] = await this.deps.db
      .select({ id: repositories.id })
      .from(repositories)
      .where(and(eq(repositories.ownerId, owner.id), eq(repositories.lowerName, name.toLowerCase())));
    const dir = repoDir(this.deps.config.dataDir, owner.name, name);
    if (row || !isDir(dir)) throw new NotFound();
    return { owner, dir };
  }

  /** Makes the row of the folder `owner/name.git` (private, as Gitea adopts), as a creation through the API would. */
  async adopt(actor: UserRow, ownerName: string, name: string): Promise<void> {
    const { owner, dir } = await this.target(ownerName, name);
    // What the folder holds, read before the transaction.
    let objectFormat: ObjectFormat = 'sha1';
    let branches: string[];
    let head = '';
    try {
      const fmt = (await git(dir, ['rev-parse', '--show-object-format'])).stdout.trim();
      if (fmt === 'sha256') objectFormat = 'sha256';
      branches = await listBranches(dir);
      head = (await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] })).stdout.trim();
    } catch {
      throw new NotFound(); // not a git repository: nothing to adopt
    }
    let defaultBranch = head;
    if (!branches.includes(head)) {
      defaultBranch = ['main', 'master'].find((b) => branches.includes(b)) ?? branches[0] ?? 'main';
      await setHead(dir, defaultBranch);
    }
    // Pushes over HTTP create and update refs, as in a repository anvil made itself.
    await git(dir, ['config', 'http.receivepack', 'true']);
    const sizeBytes = await folderSize(dir);
    try {
      await withTx(this.deps.db, async (tx) => {
        const [row] = await tx
          .insert(repositories)
          .values({
            ownerId: owner.id,
            name,
            lowerName: name.toLowerCase(),
            numWatches: 1,
            isPrivate: true,
            isEmpty: branches.length === 0,
            defaultBranch,
            objectFormat,
            numBranches: branches.length,
            sizeBytes,
          })
          .returning();
        if (owner.type === 'Organization') {
          const perm = await this.access.repoPermissionIn(tx, row!, owner, { ...actor, isAdmin: false });
          if (perm.mode !== 'admin' && perm.mode !== 'owner') {
            await tx.insert(collaborations).values({ repoId: row!.id, userId: actor.id, accessMode: 'admin' });
          }
        }
        await tx.insert(repoWatches).values({ userId: actor.id, repoId: row!.id });
        await recordEvent(this.deps, tx, {
          type: 'repository', action: 'created', repoName: row!.name, ...inRepo(row!, actor.id), activity: { opType: 'create_repo' },
        });
      });
    } catch (err) {
      // Adopted (or created) by someone else meanwhile: no longer unadopted.
      if (isUniqueViolation(err)) throw new NotFound();
      throw err;
    }
  }

  /** Removes the folder `owner/name.git`; 404 when it is missing or a repository row owns it. */
  async remove(ownerName: string, name: string): Promise<void> {
    const { dir } = await this.target(ownerName, name);
    rmSync(dir, { recursive: true, force: true });
  }
}
