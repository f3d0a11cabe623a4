// Topics: a repository's labels for discovery, kept sorted in `repositories.topics` (Gitea's rules:
// lower case, `^[a-z0-9][-.a-z0-9]*$`, at most 35 characters, at most 25 per repository).
import { and, eq, sql } from 'drizzle-orm';
import type { UserRow } from '../../db/schema/index.js';
import { repositories, users } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { rowsOf } from '../../db/raw.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound } from '../errors.js';
import { containsPattern } from '../like.js';
import { visibleTo } from './repoQuery.js';
import type { LoadedRepo } from './loadedRepo.js';

export const maxTopicsPerRepo = 25;
const topicPattern = /^[a-z0-9][-.a-z0-9]*$/;

export const normalizeTopic = (topic: string) => topic.trim().toLowerCase();
export const isValidTopic = (topic: string) => topic.length <= 35 && topicPattern.test(topic);

/** A topic search hit: `id` is derived from the name (anvil keeps no topic table). */
export interface TopicHit {
  id: number;
  name: string;
  repoCount: number;
  created: Date;
  updated: Date;
}

function requireAdmin(loaded: LoadedRepo): void {
  if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
}

export class TopicService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Replaces the topics: trimmed, lower-cased, empty ones and duplicates dropped; 422 naming the invalid ones. */
  async replace(loaded: LoadedRepo, topics: string[]): Promise<void> {
    requireAdmin(loaded);
    const wanted = [...new Set(topics.map(normalizeTopic).filter(Boolean))];
    const invalid = wanted.filter((t) => !isValidTopic(t));
    if (invalid.length) throw new Invalid(`Topic names are invalid: ${invalid.join(', ')}`);
    if (wanted.length > maxTopicsPerRepo) throw new Invalid('Exceeding maximum number of topics per repo');
    await this.deps.db.update(repositories).set({ topics: wanted.sort() }).where(eq(repositories.id, loaded.repo.id));
  }

  async add(loaded: LoadedRepo, raw: string): Promise<void> {
    requireAdmin(loaded);
    const topic = normalizeTopic(raw);
    if (!isValidTopic(topic)) throw new Invalid(`Topic name is invalid: ${topic}`);
    await withTx(this.deps.db, async (tx) => {
      // Read under the row lock, so that two adds cannot both take the 25th place.
      const [row] = await tx.select({ topics: repositories.topics }).from(repositories).where(eq(repositories.id, loaded.repo.id)).for('update');
      if (!row) throw new NotFound();
      if (row.topics.includes(topic)) return;
      if (row.topics.length >= maxTopicsPerRepo) throw new Invalid('Exceeding maximum allowed topics per repo.');
      await tx.update(repositories).set({ topics: [...row.topics, topic].sort() }).where(eq(repositories.id, loaded.repo.id));
    });
  }

  async remove(loaded: LoadedRepo, raw: string): Promise<void> {
    requireAdmin(loaded);
    const topic = normalizeTopic(raw);
    if (!isValidTopic(topic)) throw new Invalid(`Topic name is invalid: ${topic}`);
    const changed = await this.deps.db
      .update(repositories)
      .set({ topics: sql`array_remove(${repositories.topics}, ${topic})` })
      .where(and(eq(repositories.id, loaded.repo.id), sql`${topic} = any(${repositories.topics})`))
      .returning({ id: repositories.id });
    if (changed.length === 0) throw new NotFound();
  }

  /**
   * Topics of the repositories `viewer` may see whose name contains `q`, most used first: one grouped query
   * over the visible repositories' topics, and one count.
   */
  async search(viewer: UserRow | null, q: string, page: { limit: number; offset: number }): Promise<{ rows: TopicHit[]; total: number }> {
    const { db } = this.deps;
    const keyword = q.trim().toLowerCase();
    const visible = db
      .select({ topics: repositories.topics, createdAt: repositories.createdAt, updatedAt: repositories.updatedAt })
      .from(repositories)
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(and(visibleTo(viewer), sql`cardinality(${repositories.topics}) > 0`));
    const matching = sql`(select t.name, r.created_at, r.updated_at from (${visible}) r cross join lateral unnest(r.topics) as t(name)
      ${keyword ? sql`where t.name like ${containsPattern(keyword)}` : sql``})`;
    const [rows, totals] = await Promise.all([
      db.execute(sql`select m.name, count(*)::int as repo_count, min(m.created_at) as created, max(m.updated_at) as updated,
          ('x' || substr(md5(m.name), 1, 12))::bit(48)::bigint as id
        from ${matching} m group by m.name order by repo_count desc, m.name asc limit ${page.limit} offset ${page.offset}`),
      db.execute(sql`select count(distinct m.name)::int as n from ${matching} m`),
    ]);
    const total = rowsOf<{ n: number }>(totals)[0]?.n ?? 0;
    return {
      rows: rowsOf<{ name: string; repo_count: number; created: string | Date; updated: string | Date; id: string | number }>(rows).map((r) => ({
        id: Number(r.id), name: r.name, repoCount: Number(r.repo_count), created: new Date(r.created), updated: new Date(r.updated),
      })),
      total: Number(total),
    };
  }
}
