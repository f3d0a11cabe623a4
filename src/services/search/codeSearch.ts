// Code search (#41): the files of the code index (codeIndex.ts) whose content holds every term of the
// query, case-insensitive (a quoted "phrase" is one term, spaces and all), in one repository or in every
// repository whose code the caller may read; with a path filter (a case-insensitive substring of the
// path) and a language filter. The trigram index of the files' content answers the terms; the page's
// files are then cut into the lines that match.
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { codeIndexFiles, codeIndexRepos, repositories, users, type RepoRow, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { Invalid } from '../errors.js';
import { unitReadable } from '../issues/search.js';
import { containsPattern } from '../like.js';
import { visibleTo } from '../repos/repoQuery.js';

export interface CodeSearchInput {
  q: string;
  path?: string;
  language?: string;
}

export interface CodeMatch {
  line: number;
  fragment: string;
}

export interface CodeHit {
  repo: RepoRow;
  owner: UserRow;
  path: string;
  blob: string;
  language: string;
  matches: CodeMatch[];
}

/** Lines shown per file, and the longest fragment of a line. */
const linesPerFile = 5;
const fragmentChars = 240;
const maxTerms = 10;

/** The terms of a query: "quoted phrases" whole, other words one by one; 422 when there are none. */
export function termsOf(q: string): string[] {
  const terms: string[] = [];
  for (const m of q.replace(/\0/g, '').matchAll(/"([^"]*)"?|(\S+)/g)) {
    const t = (m[1] ?? m[2] ?? '').trim();
    if (t) terms.push(t);
  }
  if (!terms.length) throw new Invalid('[q]: nothing to search for');
  if (terms.length > maxTerms) throw new Invalid(`[q]: at most ${maxTerms} terms`);
  return [...new Set(terms)];
}

/** The lines of `content` holding a term (1-based numbers), each cut to a fragment around the first term found. */
export function matchesIn(content: string, terms: string[]): CodeMatch[] {
  const lower = terms.map((t) => t.toLowerCase());
  const out: CodeMatch[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length && out.length < linesPerFile; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    const l = line.toLowerCase();
    const at = Math.min(...lower.map((t) => l.indexOf(t)).filter((x) => x >= 0));
    if (!Number.isFinite(at)) continue;
    const start = line.length <= fragmentChars ? 0 : Math.max(0, Math.min(at - fragmentChars / 4, line.length - fragmentChars));
    out.push({ line: i + 1, fragment: line.slice(start, start + fragmentChars) });
  }
  return out;
}

export class CodeSearchService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * One page of hits, in repository then path order. `within`: that repository alone (the caller was
   * checked already, and the repository and its owner read); otherwise every repository the caller sees
   * and whose code it may read.
   */
  async search(viewer: UserRow | null, f: CodeSearchInput, page: { limit: number; offset: number }, within?: { repo: RepoRow; owner: UserRow }): Promise<{
    hits: CodeHit[]; total: number;
  }> {
    const { db } = this.deps;
    const terms = termsOf(f.q);
    const conds: Array<SQL | undefined> = terms.map((t) => sql`${codeIndexFiles.content} ilike ${containsPattern(t)}`);
    if (f.path?.trim()) conds.push(sql`${codeIndexFiles.path} ilike ${containsPattern(f.path.trim())}`);
    if (f.language?.trim()) conds.push(sql`lower(${codeIndexFiles.language}) = ${f.language.trim().toLowerCase()}`);
    if (within) {
      // One repository, already read: its page (content and all) and its count, without joining the
      // repository and its owner to every file, and without a second round for the page's rows.
      const { repo, owner } = within;
      const here = and(eq(codeIndexFiles.repoId, repo.id), ...conds);
      const [files, [total]] = await Promise.all([
        db.select({ path: codeIndexFiles.path, blob: codeIndexFiles.blob, language: codeIndexFiles.language, content: codeIndexFiles.content })
          .from(codeIndexFiles).where(here).orderBy(asc(codeIndexFiles.path)).limit(page.limit).offset(page.offset),
        db.select({ n: count() }).from(codeIndexFiles).where(here),
      ]);
      return {
        total: total?.n ?? 0,
        hits: files.map((file) => ({ repo, owner, path: file.path, blob: file.blob, language: file.language, matches: matchesIn(file.content, terms) })),
      };
    }
    conds.push(visibleTo(viewer), unitReadable(viewer, 'repo.code'));
    const where = and(...conds);
    const from = () => db.select({ repoId: codeIndexFiles.repoId, path: codeIndexFiles.path }).from(codeIndexFiles)
      .innerJoin(repositories, eq(repositories.id, codeIndexFiles.repoId)).innerJoin(users, eq(users.id, repositories.ownerId));
    const [keys, [total]] = await Promise.all([
      from().where(where).orderBy(asc(codeIndexFiles.repoId), asc(codeIndexFiles.path)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(codeIndexFiles)
        .innerJoin(repositories, eq(repositories.id, codeIndexFiles.repoId)).innerJoin(users, eq(users.id, repositories.ownerId)).where(where),
    ]);
    if (!keys.length) return { hits: [], total: total?.n ?? 0 };
    const rows = await db.select({ file: codeIndexFiles, repo: repositories, owner: users }).from(codeIndexFiles)
      .innerJoin(repositories, eq(repositories.id, codeIndexFiles.repoId)).innerJoin(users, eq(users.id, repositories.ownerId))
      .where(sql`(${codeIndexFiles.repoId}, ${codeIndexFiles.path}) in (${sql.join(keys.map((k) => sql`(${k.repoId}::bigint, ${k.path})`), sql`, `)})`)
      .orderBy(asc(codeIndexFiles.repoId), asc(codeIndexFiles.path));
    return {
      total: total?.n ?? 0,
      hits: rows.map(({ file, repo, owner }) => ({
        repo, owner, path: file.path, blob: file.blob, language: file.language, matches: matchesIn(file.content, terms),
      })),
    };
  }

  /** The commit a repository's index was last brought in step with ('' before its first round). */
  async indexedCommit(repoId: number): Promise<string> {
    const [r] = await this.deps.db.select({ c: codeIndexRepos.indexedCommit }).from(codeIndexRepos).where(eq(codeIndexRepos.repoId, repoId));
    return r?.c ?? '';
  }
}
