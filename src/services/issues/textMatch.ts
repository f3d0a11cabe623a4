// Gitea's keyword match of issues and pull requests (`q`): the keyword as a case-insensitive substring of
// the title, the body or the text of a plain comment, and, when it is a number (`12` or `#12`), the issue
// of that number too. Each arm is answered by an index (trigram GIN indexes of migration 0033 for the
// texts, the number's btree), kept in step by PostgreSQL in every writing transaction: the arms are a
// union of ids, so the planner reads each index instead of testing every issue's row (an OR with an
// EXISTS over comments would be a scan).
import { sql, type SQL } from 'drizzle-orm';
import { comments, issues } from '../../db/schema/index.js';
import { containsPattern } from '../like.js';

/** The keyword as Gitea reads it: NUL dropped, trimmed; '' when nothing is left. */
export function keywordOf(q: string | undefined): string {
  return (q ?? '').replace(/\0/g, '').trim();
}

/** The issue number a keyword names (`12`, `#12`), if any. */
export function numberOf(keyword: string): string | undefined {
  const m = /^#?(\d{1,18})$/.exec(keyword);
  return m ? String(BigInt(m[1]!)) : undefined;
}

/**
 * A condition on `issues` that holds for the issues the keyword matches. `repoId` narrows every arm to
 * one repository (a repository's list), so each index is read for that repository alone.
 */
export function issueTextMatch(keyword: string, repoId?: number): SQL {
  const like = containsPattern(keyword);
  const inRepo = (col: SQL) => (repoId === undefined ? sql`` : sql` and ${col} = ${repoId}`);
  const number = numberOf(keyword);
  return sql`${issues.id} in (
    select i.id from ${issues} i where i.title ilike ${like}${inRepo(sql`i.repo_id`)}
    union all select i.id from ${issues} i where i.body ilike ${like}${inRepo(sql`i.repo_id`)}
    union all select c.issue_id from ${comments} c where c.type = 'comment' and c.body ilike ${like}${inRepo(sql`c.repo_id`)}
    ${number === undefined ? sql`` : sql`union all select i.id from ${issues} i where i.index = ${number}::bigint${inRepo(sql`i.repo_id`)}`})`;
}
