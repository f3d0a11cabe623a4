// Milestones: created and edited by issue or pull-request writers, found by id (Go's ParseInt base 0
// forms) or by exact name, with exact open/closed counts.
import { and, asc, count, eq, ilike, type SQL } from 'drizzle-orm';
import { issues, milestones, type MilestoneRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { canRead, canWrite } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { containsPattern } from '../like.js';
import { Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

/** strconv.ParseInt(s, 0, 64): decimal, 0x/0o/0b prefixes, a leading 0 for octal, `_` between digits. */
export function parseGoInt(s: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(s);
  if (!m) return undefined;
  let digits = m[2]!;
  let base = 10;
  if (/^0[xX]/.test(digits)) (base = 16), (digits = digits.slice(2));
  else if (/^0[oO]/.test(digits)) (base = 8), (digits = digits.slice(2));
  else if (/^0[bB]/.test(digits)) (base = 2), (digits = digits.slice(2));
  else if (digits.length > 1 && digits.startsWith('0')) (base = 8), (digits = digits.slice(1));
  // Underscores only between digits (after a prefix too).
  if (/^_|_$|__/.test(digits) || (base === 10 && digits.includes('_'))) return undefined;
  const n = parseInt(digits.replace(/_/g, ''), base);
  if (!Number.isSafeInteger(n)) return undefined;
  return m[1] === '-' ? -n : n;
}

/** Labels and milestones serve issues and pull requests: with neither unit readable they are not there (404). */
export function requireIssuesOrPulls(loaded: LoadedRepo): void {
  if (!canRead(loaded.perm, 'repo.issues') && !canRead(loaded.perm, 'repo.pulls')) throw new NotFound();
}

export function requireMilestoneWriter(loaded: LoadedRepo): void {
  requireIssuesOrPulls(loaded);
  if (!canWrite(loaded.perm, 'repo.issues') && !canWrite(loaded.perm, 'repo.pulls')) {
    throw new Forbidden('user should have a permission to write to a repo');
  }
}

export class MilestoneService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(loaded: LoadedRepo, input: { title: string; description?: string; dueOn?: string; state?: string }): Promise<MilestoneRow> {
    requireMilestoneWriter(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!input.title.trim()) throw new Invalid('[title]: Required');
    const closed = input.state === 'closed';
    const now = new Date();
    const [row] = await this.deps.db
      .insert(milestones)
      .values({
        repoId: loaded.repo.id,
        name: input.title,
        description: input.description ?? '',
        dueOn: input.dueOn ? new Date(input.dueOn) : null,
        isClosed: closed,
        closedAt: closed ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row!;
  }

  async list(loaded: LoadedRepo, f: { state?: string; name?: string }, page: { limit: number; offset: number }) {
    requireIssuesOrPulls(loaded);
    const conds: SQL[] = [eq(milestones.repoId, loaded.repo.id)];
    if (f.state !== 'all') conds.push(eq(milestones.isClosed, f.state === 'closed'));
    if (f.name?.trim()) conds.push(ilike(milestones.name, containsPattern(f.name.trim())));
    const where = and(...conds);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(milestones).where(where).orderBy(asc(milestones.dueOn), asc(milestones.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(milestones).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** By id when `idOrName` parses to one that exists here, else by exact name; 404 when neither. */
  async resolve(loaded: LoadedRepo, idOrName: string): Promise<MilestoneRow> {
    requireIssuesOrPulls(loaded);
    const { db } = this.deps;
    const id = parseGoInt(idOrName);
    if (id) {
      const [byId] = await db.select().from(milestones).where(and(eq(milestones.repoId, loaded.repo.id), eq(milestones.id, id)));
      if (byId) return byId;
    }
    const [byName] = await db.select().from(milestones).where(and(eq(milestones.repoId, loaded.repo.id), eq(milestones.name, idOrName))).orderBy(asc(milestones.id)).limit(1);
    if (!byName) throw new NotFound();
    return byName;
  }

  async edit(loaded: LoadedRepo, idOrName: string, input: { title?: string; description?: string; dueOn?: string; state?: string }): Promise<MilestoneRow> {
    requireMilestoneWriter(loaded);
    const m = await this.resolve(loaded, idOrName);
    const set: Partial<MilestoneRow> = { updatedAt: new Date() };
    if (input.title?.trim()) set.name = input.title;
    if (input.description !== undefined) set.description = input.description;
    if (input.dueOn) set.dueOn = new Date(input.dueOn);
    if (input.state !== undefined) {
      const closed = input.state === 'closed';
      if (closed !== m.isClosed) {
        set.isClosed = closed;
        set.closedAt = closed ? new Date() : null;
      }
    }
    const [row] = await this.deps.db.update(milestones).set(set).where(eq(milestones.id, m.id)).returning();
    return row!;
  }

  /** Deletes the milestone; its issues and pull requests stay, without a milestone (no counter counts milestones). */
  async delete(loaded: LoadedRepo, idOrName: string): Promise<void> {
    requireMilestoneWriter(loaded);
    const m = await this.resolve(loaded, idOrName);
    if (loaded.repo.isArchived) throw new RepoArchived();
    await withTx(this.deps.db, async (tx) => {
      await tx.update(issues).set({ milestoneId: null }).where(eq(issues.milestoneId, m.id));
      await tx.delete(milestones).where(eq(milestones.id, m.id));
    });
  }
}
