// Tag protection rules (Gitea's ProtectedTag): a name pattern and an allow-list of users and teams. Only
// those listed may create, move or delete a matching tag, whichever way: pushes over git (the pre-receive
// hook, with the rules pushRules writes), the tag API and releases that create their tag. Repository
// administrators are not exempt, as in Gitea. A tag is allowed when no rule matches it or the user is
// listed in one of the rules that match.
import { and, asc, eq } from 'drizzle-orm';
import { tagProtections, type TagProtectionRow, type UserRow } from '../../db/schema/index.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden, Invalid, isUniqueViolation, NotFound, RepoArchived } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { isListed, namesOf, teamIdsByName, userIdsByName } from './allowLists.js';

export interface TagProtectionView {
  row: TagProtectionRow;
  userNames: Map<number, string>;
  teamNames: Map<number, string>;
}

export interface TagProtectionInput {
  namePattern?: string;
  whitelistUsernames?: string[];
  whitelistTeams?: string[];
}

/** One character matched as itself, in JavaScript and POSIX ERE alike. */
const literal = (c: string) => (/[.+*?^$()[\]{}|\\]/.test(c) ? `\\${c}` : c);

/** A glob (gobwas/glob without separators, as Gitea: `*` crosses `/`) as an anchored regular expression that JavaScript and POSIX ERE read alike. */
export function tagGlobSource(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '\\' && i + 1 < glob.length) out += literal(glob[++i]!);
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) throw new Invalid(`[name_pattern]: unclosed "[" in ${glob}`);
      let body = glob.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      if (body.includes('\\') || body.includes('[')) throw new Invalid(`[name_pattern]: unsupported character class in ${glob}`);
      out += `[${body}]`;
      i = end;
    } else if (c === '{') {
      braces++;
      out += '(';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += literal(c);
  }
  if (braces) throw new Invalid(`[name_pattern]: unclosed "{" in ${glob}`);
  return `^${out}$`;
}

const ereClasses: Record<string, string> = {
  d: '[0-9]', D: '[^0-9]', w: '[A-Za-z0-9_]', W: '[^A-Za-z0-9_]', s: '[[:space:]]', S: '[^[:space:]]',
};

/**
 * A rule's pattern as two regular expressions: `js` for the API's checks, `ere` for the hook's `grep -E`.
 * Between slashes it is a regular expression, matched anywhere in the name as Gitea's MatchString does;
 * only the constructs both engines read the same way are accepted (422 otherwise).
 */
export function tagPatternSources(pattern: string): { js: string; ere: string } {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(pattern)) throw new Invalid('[name_pattern]: control characters are not allowed');
  if (!(pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/'))) {
    const source = tagGlobSource(pattern);
    return { js: source, ere: source };
  }
  const re = pattern.slice(1, -1);
  if (re.includes('(?')) throw new Invalid('[name_pattern]: group flags and look-arounds are not supported');
  let ere = '';
  let inClass = false;
  for (let i = 0; i < re.length; i++) {
    const c = re[i]!;
    if (c === '\\') {
      const n = re[i + 1];
      if (n === undefined || inClass) throw new Invalid('[name_pattern]: unsupported escape in the regular expression');
      i++;
      if (ereClasses[n]) ere += ereClasses[n];
      else if (/[.\\+*?()[\]{}|^$/-]/.test(n)) ere += n === '/' || n === '-' ? n : `\\${n}`;
      else throw new Invalid(`[name_pattern]: unsupported escape \\${n} in the regular expression`);
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    ere += c;
  }
  try {
    new RegExp(re, 'u');
  } catch {
    throw new Invalid(`[name_pattern]: not a valid regular expression: ${re}`);
  }
  return { js: re, ere };
}

export class TagProtectionService {
  constructor(private readonly deps: ServiceDeps) {}

  private requireAdmin(loaded: LoadedRepo): void {
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
  }

  async rules(repoId: number): Promise<TagProtectionRow[]> {
    return this.deps.db.select().from(tagProtections).where(eq(tagProtections.repoId, repoId)).orderBy(asc(tagProtections.id));
  }

  /** Gitea's IsUserAllowedToControlTag: no rule matches, or the user is on the list of one that does. */
  async mayControl(repoId: number, user: UserRow | null, tag: string): Promise<boolean> {
    const matching = (await this.rules(repoId)).filter((r) => new RegExp(tagPatternSources(r.namePattern).js, 'u').test(tag));
    if (!matching.length) return true;
    if (!user) return false;
    for (const r of matching) if (await isListed(this.deps.db, user.id, r.allowlistUserIds, r.allowlistTeamIds)) return true;
    return false;
  }

  /** Refuses (422, Gitea's ErrProtectedTagName) a change of a protected tag by someone not listed. */
  async check(repoId: number, user: UserRow | null, tag: string, doing: 'create' | 'delete'): Promise<void> {
    if (!(await this.mayControl(repoId, user, tag))) throw new Invalid(`user not allowed to ${doing} protected tag`);
  }

  /**
   * The tag rules of one push for the pre-receive hook, one line each, first match wins: `allow\t<ERE>` for
   * the rules listing the pusher, then `deny\t<ERE>` for the others. A deploy key is listed nowhere.
   */
  async pushRules(repoId: number, pusher: UserRow | null): Promise<string> {
    const rules = await this.rules(repoId);
    const allow: string[] = [];
    const deny: string[] = [];
    for (const r of rules) {
      let ere: string;
      try {
        ere = tagPatternSources(r.namePattern).ere;
      } catch {
        ere = '.*'; // a stored pattern no longer readable protects every tag rather than none
      }
      const listed = !!pusher && (await isListed(this.deps.db, pusher.id, r.allowlistUserIds, r.allowlistTeamIds));
      (listed ? allow : deny).push(`${listed ? 'allow' : 'deny'}\t${ere}`);
    }
    return [...allow, ...deny].join('\n');
  }

  async list(loaded: LoadedRepo): Promise<TagProtectionView[]> {
    this.requireAdmin(loaded);
    return this.views(await this.rules(loaded.repo.id));
  }

  private async byId(loaded: LoadedRepo, id: number): Promise<TagProtectionRow> {
    const [row] = await this.deps.db.select().from(tagProtections).where(and(eq(tagProtections.id, id), eq(tagProtections.repoId, loaded.repo.id)));
    if (!row) throw new NotFound();
    return row;
  }

  async get(loaded: LoadedRepo, id: number): Promise<TagProtectionView> {
    this.requireAdmin(loaded);
    return (await this.views([await this.byId(loaded, id)]))[0]!;
  }

  private async lists(loaded: LoadedRepo, input: TagProtectionInput): Promise<{ allowlistUserIds?: number[]; allowlistTeamIds?: number[] }> {
    const out: { allowlistUserIds?: number[]; allowlistTeamIds?: number[] } = {};
    if (input.whitelistUsernames) out.allowlistUserIds = await userIdsByName(this.deps.db, input.whitelistUsernames);
    // Teams belong to organizations; on a user's repository Gitea ignores them.
    if (input.whitelistTeams) {
      out.allowlistTeamIds = loaded.owner.type === 'Organization' ? await teamIdsByName(this.deps.db, loaded.owner.id, input.whitelistTeams) : [];
    }
    return out;
  }

  async create(loaded: LoadedRepo, input: TagProtectionInput): Promise<TagProtectionView> {
    this.requireAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const namePattern = (input.namePattern ?? '').trim();
    if (!namePattern) throw new BadRequest('name_pattern are empty');
    if (!input.whitelistUsernames?.length && !input.whitelistTeams?.length) throw new BadRequest('both whitelist_usernames and whitelist_teams are empty');
    tagPatternSources(namePattern);
    const lists = await this.lists(loaded, input);
    try {
      const [row] = await this.deps.db.insert(tagProtections).values({ repoId: loaded.repo.id, namePattern, ...lists }).returning();
      return (await this.views([row!]))[0]!;
    } catch (err) {
      if (isUniqueViolation(err)) throw new Forbidden('Tag protection already exist');
      throw err;
    }
  }

  async edit(loaded: LoadedRepo, id: number, input: TagProtectionInput): Promise<TagProtectionView> {
    this.requireAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const current = await this.byId(loaded, id);
    const namePattern = input.namePattern === undefined ? current.namePattern : input.namePattern.trim();
    if (!namePattern) throw new BadRequest('name_pattern are empty');
    tagPatternSources(namePattern);
    const lists = await this.lists(loaded, input);
    try {
      const [row] = await this.deps.db.update(tagProtections).set({ namePattern, ...lists, updatedAt: new Date() })
        .where(and(eq(tagProtections.id, current.id), eq(tagProtections.repoId, loaded.repo.id))).returning();
      if (!row) throw new NotFound();
      return (await this.views([row]))[0]!;
    } catch (err) {
      if (isUniqueViolation(err)) throw new Forbidden('Tag protection already exist');
      throw err;
    }
  }

  async delete(loaded: LoadedRepo, id: number): Promise<void> {
    this.requireAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const gone = await this.deps.db.delete(tagProtections)
      .where(and(eq(tagProtections.id, id), eq(tagProtections.repoId, loaded.repo.id))).returning({ id: tagProtections.id });
    if (!gone.length) throw new NotFound();
  }

  private async views(rows: TagProtectionRow[]): Promise<TagProtectionView[]> {
    const { userNames, teamNames } = await namesOf(this.deps.db, rows.flatMap((r) => r.allowlistUserIds), rows.flatMap((r) => r.allowlistTeamIds));
    return rows.map((row) => ({ row, userNames, teamNames }));
  }
}
