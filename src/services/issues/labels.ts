// Repository labels.
import { asc, count, eq } from 'drizzle-orm';
import { labels, type LabelRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { Invalid, RepoArchived } from '../errors.js';
import { requireIssuesOrPulls, requireMilestoneWriter } from './milestones.js';
import type { LoadedRepo } from '../repos/repos.js';

/** `#rrggbb` (also accepts `rrggbb` and `#rgb`, as Gitea does); anything else is 422, not Gitea's 500. */
export function normalizeColor(color: string): string {
  const c = color.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{6}$/.test(c)) return `#${c}`;
  if (/^[0-9a-f]{3}$/.test(c)) return `#${c.split('').map((x) => x + x).join('')}`;
  throw new Invalid(`[color]: invalid color "${color}", expected #rrggbb`);
}

export class LabelService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(loaded: LoadedRepo, input: { name: string; color: string; description?: string; exclusive?: boolean; isArchived?: boolean }): Promise<LabelRow> {
    requireMilestoneWriter(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!input.name.trim()) throw new Invalid('[name]: Required');
    const [row] = await this.deps.db
      .insert(labels)
      .values({
        repoId: loaded.repo.id,
        name: input.name,
        color: normalizeColor(input.color),
        description: input.description ?? '',
        exclusive: input.exclusive ?? false,
        isArchived: input.isArchived ?? false,
      })
      .returning();
    return row!;
  }

  async list(loaded: LoadedRepo, page: { limit: number; offset: number }) {
    requireIssuesOrPulls(loaded);
    const where = eq(labels.repoId, loaded.repo.id);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(labels).where(where).orderBy(asc(labels.name), asc(labels.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(labels).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}
