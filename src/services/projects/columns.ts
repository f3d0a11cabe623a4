// The columns of a project and the issues on them. Changes need write access to the organization's
// projects and an open project (403 `project is closed`, as Gitea); a project holds at most 20 columns,
// one of them the default column, which takes the issues of a deleted column.
import { and, asc, count, eq, max, ne } from 'drizzle-orm';
import { issues, projectColumns, projectIssues, projects, repositories, users, type ProjectColumnRow, type UserRow } from '../../db/schema/index.js';
import { rank } from '../../db/schema/access.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound } from '../errors.js';
import { issueUnit } from '../issues/issues.js';
import type { AccessService } from '../repos/access.js';
import { requiredTitle, type LoadedProject } from './projects.js';

export const maxProjectColumns = 20;

/** Writes to a project's board: write access (404 otherwise) and an open project (403). */
function requireOpenBoard(loaded: LoadedProject): void {
  if (rank(loaded.mode) < rank('write')) throw new NotFound();
  if (loaded.project.isClosed) throw new Forbidden('project is closed');
}

/** Locks the project's row, so that the column count and the default column hold until the commit. */
async function lockProject(tx: Db, projectId: number): Promise<void> {
  const [p] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for('update');
  if (!p) throw new NotFound();
}

export class ProjectColumnService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  async list(loaded: LoadedProject, page: { limit: number; offset: number }) {
    const where = eq(projectColumns.projectId, loaded.project.id);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(projectColumns).where(where).orderBy(asc(projectColumns.sorting), asc(projectColumns.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(projectColumns).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** Spec 21: appended after the others (`sorting` highest + 1, or 0), not the default, the caller its creator. */
  async create(loaded: LoadedProject, actor: UserRow, input: { title: string; color?: string }): Promise<ProjectColumnRow> {
    requireOpenBoard(loaded);
    const title = requiredTitle(input.title);
    const color = checkedColor(input.color);
    return withTx(this.deps.db, async (tx) => {
      await lockProject(tx, loaded.project.id);
      const [stats] = await tx
        .select({ n: count(), top: max(projectColumns.sorting) })
        .from(projectColumns)
        .where(eq(projectColumns.projectId, loaded.project.id));
      if ((stats?.n ?? 0) >= maxProjectColumns) throw new Invalid(`a project has at most ${maxProjectColumns} columns`);
      const now = new Date();
      const [row] = await tx
        .insert(projectColumns)
        .values({ projectId: loaded.project.id, title, color, sorting: stats?.top === null || stats?.top === undefined ? 0 : stats.top + 1, creatorId: actor.id, createdAt: now, updatedAt: now })
        .returning();
      return row!;
    });
  }

  async load(loaded: LoadedProject, columnId: number): Promise<ProjectColumnRow> {
    const [row] = await this.deps.db.select().from(projectColumns).where(and(eq(projectColumns.id, columnId), eq(projectColumns.projectId, loaded.project.id)));
    if (!row) throw new NotFound();
    return row;
  }

  async edit(loaded: LoadedProject, columnId: number, input: { title?: string; color?: string; sorting?: number; default?: boolean }): Promise<ProjectColumnRow> {
    requireOpenBoard(loaded);
    const set: Partial<ProjectColumnRow> = { updatedAt: new Date() };
    if (input.title !== undefined) set.title = requiredTitle(input.title);
    if (input.color !== undefined) set.color = checkedColor(input.color);
    if (input.sorting !== undefined) set.sorting = input.sorting;
    return withTx(this.deps.db, async (tx) => {
      await lockProject(tx, loaded.project.id);
      const [column] = await tx.select().from(projectColumns).where(and(eq(projectColumns.id, columnId), eq(projectColumns.projectId, loaded.project.id)));
      if (!column) throw new NotFound();
      if (input.default === false && column.isDefault) {
        throw new Invalid('a project keeps a default column: make another column the default instead');
      }
      if (input.default === true && !column.isDefault) {
        await tx.update(projectColumns).set({ isDefault: false }).where(and(eq(projectColumns.projectId, loaded.project.id), ne(projectColumns.id, columnId)));
        set.isDefault = true;
      }
      const [row] = await tx.update(projectColumns).set(set).where(eq(projectColumns.id, columnId)).returning();
      return row!;
    });
  }

  /** Deletes a column; its issues go to the default column (made, as Gitea's `Uncategorized`, when there is none). */
  async delete(loaded: LoadedProject, columnId: number, actor: UserRow): Promise<void> {
    requireOpenBoard(loaded);
    await withTx(this.deps.db, async (tx) => {
      await lockProject(tx, loaded.project.id);
      const [column] = await tx.select().from(projectColumns).where(and(eq(projectColumns.id, columnId), eq(projectColumns.projectId, loaded.project.id)));
      if (!column) throw new NotFound();
      if (column.isDefault) throw new Invalid('the default column cannot be deleted');
      const [held] = await tx.select({ n: count() }).from(projectIssues).where(eq(projectIssues.columnId, columnId));
      if ((held?.n ?? 0) > 0) {
        const target = await this.defaultColumn(tx, loaded.project.id, actor);
        await tx.update(projectIssues).set({ columnId: target }).where(eq(projectIssues.columnId, columnId));
      }
      await tx.delete(projectColumns).where(eq(projectColumns.id, columnId));
    });
  }

  /**
   * Puts an issue of the organization's repositories (one the caller can read; 422 otherwise, like an
   * unknown id) in the column, or moves it there; it goes last in the column.
   */
  async addIssue(loaded: LoadedProject, columnId: number, actor: UserRow, issueId: number): Promise<ProjectColumnRow> {
    requireOpenBoard(loaded);
    const [found] = await this.deps.db
      .select({ issue: issues, repo: repositories, owner: users })
      .from(issues)
      .innerJoin(repositories, eq(repositories.id, issues.repoId))
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(and(eq(issues.id, issueId), eq(repositories.ownerId, loaded.org.id)));
    const perm = found ? await this.access.repoPermission(found.repo, found.owner, actor) : undefined;
    if (!found || !canRead(perm!, issueUnit(found.issue.isPull))) {
      throw new Invalid(`issue ${issueId} does not exist in a repository of ${loaded.org.name}`);
    }
    return withTx(this.deps.db, async (tx) => {
      await lockProject(tx, loaded.project.id);
      const [column] = await tx.select().from(projectColumns).where(and(eq(projectColumns.id, columnId), eq(projectColumns.projectId, loaded.project.id)));
      if (!column) throw new NotFound();
      const [last] = await tx.select({ top: max(projectIssues.sorting) }).from(projectIssues).where(eq(projectIssues.columnId, columnId));
      const sorting = last?.top === null || last?.top === undefined ? 0 : last.top + 1;
      await tx
        .insert(projectIssues)
        .values({ projectId: loaded.project.id, issueId, columnId, sorting })
        .onConflictDoUpdate({ target: [projectIssues.projectId, projectIssues.issueId], set: { columnId, sorting } });
      return column;
    });
  }

  /** The project's default column, made when there is none. */
  private async defaultColumn(tx: Db, projectId: number, actor: UserRow): Promise<number> {
    const [d] = await tx.select({ id: projectColumns.id }).from(projectColumns).where(and(eq(projectColumns.projectId, projectId), eq(projectColumns.isDefault, true)));
    if (d) return d.id;
    const now = new Date();
    const [made] = await tx
      .insert(projectColumns)
      .values({ projectId, title: 'Uncategorized', isDefault: true, sorting: 0, creatorId: actor.id, createdAt: now, updatedAt: now })
      .returning({ id: projectColumns.id });
    return made!.id;
  }
}

/** `#` and six hex digits (kept as given), or empty for none; anything else is 422. */
function checkedColor(color: string | undefined): string {
  const c = (color ?? '').trim();
  if (c && !/^#[0-9a-fA-F]{6}$/.test(c)) throw new Invalid('[Color]: must be # followed by six hex digits');
  return c;
}
