// Organization projects: who may read and change them (the projects unit the caller's teams grant in the
// organization, read for everyone when the organization is public, everything for site administrators),
// the projects themselves, and the issue counts each caller sees.
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import {
  issues, projectColumns, projectIssues, projects, teamMembers, teams, teamUnits, users,
  type CardType, type ProjectRow, type ProjectTemplate, type UserRow,
} from '../../db/schema/index.js';
import { maxMode, rank, type AccessMode, type Unit } from '../../db/schema/access.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { teamUnitModes } from '../../permissions/repo.js';
import { readableIssues } from '../issues/issues.js';
import type { ServiceDeps } from '../context.js';
import { Invalid, NotFound } from '../errors.js';
import type { AccessService } from '../repos/access.js';

/** The columns a template starts with; the first is the default column. */
const templateColumns: Record<ProjectTemplate, string[]> = {
  none: [],
  basic_kanban: ['Backlog', 'To Do', 'In Progress', 'Done'],
  bug_triage: ['Backlog', 'Needs Triage', 'High Priority', 'Low Priority', 'Closed'],
};

export interface IssueCounts {
  open: number;
  closed: number;
}

/** An organization's project as the caller loaded it, with the caller's access to the org's projects. */
export interface LoadedProject {
  org: UserRow;
  project: ProjectRow;
  mode: AccessMode;
}

export const requiredTitle = (title: string | undefined, field = 'Title'): string => {
  const t = (title ?? '').trim();
  if (!t) throw new Invalid(`[${field}]: Required`);
  return t;
};

export class ProjectService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  /**
   * The caller's access to the organization's projects (Gitea's Organization.UnitPermission): the best
   * projects mode of the caller's teams there; at least read when the organization is public.
   */
  async accessMode(org: UserRow, actor: UserRow | null): Promise<AccessMode> {
    if (actor?.isAdmin) return 'admin';
    let mode: AccessMode = org.visibility === 'public' ? 'read' : 'none';
    if (!actor) return mode;
    const rows = await this.deps.db
      .select({ id: teams.id, mode: teams.accessMode, unit: teamUnits.unit, unitMode: teamUnits.accessMode })
      .from(teams)
      .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, actor.id)))
      .leftJoin(teamUnits, eq(teamUnits.teamId, teams.id))
      .where(eq(teams.orgId, org.id));
    const grants = new Map<number, { mode: AccessMode; units: Partial<Record<Unit, AccessMode>> }>();
    for (const r of rows) {
      const g = grants.get(r.id) ?? { mode: r.mode, units: {} };
      if (r.unit && r.unitMode) g.units[r.unit] = r.unitMode;
      grants.set(r.id, g);
    }
    for (const g of grants.values()) mode = maxMode(mode, teamUnitModes(g)['repo.projects']);
    return mode;
  }

  /** A project of the organization the caller may read (write when `write`); 404 otherwise, as Gitea. */
  async load(org: UserRow, actor: UserRow | null, id: number, need: 'read' | 'write'): Promise<LoadedProject> {
    const mode = await this.require(org, actor, need);
    const [project] = await this.deps.db.select().from(projects).where(and(eq(projects.id, id), eq(projects.ownerId, org.id)));
    if (!project) throw new NotFound();
    return { org, project, mode };
  }

  /** The caller's mode when it reaches `need`; 404 otherwise. */
  async require(org: UserRow, actor: UserRow | null, need: 'read' | 'write'): Promise<AccessMode> {
    const mode = await this.accessMode(org, actor);
    if (rank(mode) < rank(need)) throw new NotFound();
    return mode;
  }

  async create(org: UserRow, actor: UserRow, input: { title: string; description?: string; templateType?: ProjectTemplate; cardType?: CardType }): Promise<ProjectRow> {
    await this.require(org, actor, 'write');
    const title = requiredTitle(input.title);
    const templateType = input.templateType ?? 'none';
    return withTx(this.deps.db, async (tx) => {
      const now = new Date();
      const [project] = await tx
        .insert(projects)
        .values({ ownerId: org.id, title, description: input.description ?? '', templateType, cardType: input.cardType ?? 'text_only', creatorId: actor.id, createdAt: now, updatedAt: now })
        .returning();
      const titles = templateColumns[templateType];
      if (titles.length) {
        await tx.insert(projectColumns).values(
          titles.map((t, i) => ({ projectId: project!.id, title: t, isDefault: i === 0, sorting: i, creatorId: actor.id, createdAt: now, updatedAt: now })),
        );
      }
      return project!;
    });
  }

  async list(org: UserRow, actor: UserRow | null, state: 'open' | 'closed' | 'all', page: { limit: number; offset: number }) {
    await this.require(org, actor, 'read');
    const where = and(eq(projects.ownerId, org.id), state === 'all' ? undefined : eq(projects.isClosed, state === 'closed'));
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(projects).where(where).orderBy(desc(projects.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(projects).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async edit(loaded: LoadedProject, input: { title?: string; description?: string; cardType?: CardType; state?: 'open' | 'closed' }): Promise<ProjectRow> {
    if (rank(loaded.mode) < rank('write')) throw new NotFound();
    const set: Partial<ProjectRow> = { updatedAt: new Date() };
    if (input.title !== undefined) set.title = requiredTitle(input.title);
    if (input.description !== undefined) set.description = input.description;
    if (input.cardType !== undefined) set.cardType = input.cardType;
    if (input.state !== undefined && (input.state === 'closed') !== loaded.project.isClosed) {
      set.isClosed = input.state === 'closed';
      set.closedAt = set.isClosed ? set.updatedAt! : null;
    }
    const [row] = await this.deps.db.update(projects).set(set).where(eq(projects.id, loaded.project.id)).returning();
    if (!row) throw new NotFound();
    return row;
  }

  async delete(loaded: LoadedProject): Promise<void> {
    if (rank(loaded.mode) < rank('write')) throw new NotFound();
    await this.deps.db.delete(projects).where(eq(projects.id, loaded.project.id));
  }

  /** The creators of some projects or columns, by id (absent: a deleted account). */
  async creators(ids: number[]): Promise<Map<number, UserRow>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.deps.db.select().from(users).where(inArray(users.id, unique));
    return new Map(rows.map((u) => [u.id, u]));
  }

  /**
   * Open and closed issues on each project that the caller can see: issues where they read the issues
   * unit, pull requests where they read the pulls unit. Four queries however many projects.
   */
  async counts(projectIds: number[], actor: UserRow | null, db: Db = this.deps.db): Promise<Map<number, IssueCounts>> {
    const out = new Map<number, IssueCounts>(projectIds.map((id) => [id, { open: 0, closed: 0 }]));
    if (projectIds.length === 0) return out;
    const onBoards = inArray(projectIssues.projectId, projectIds);
    const repoIds = (await db.selectDistinct({ id: issues.repoId }).from(projectIssues).innerJoin(issues, eq(issues.id, projectIssues.issueId)).where(onBoards)).map((r) => r.id);
    if (repoIds.length === 0) return out;
    const visible = readableIssues(await this.access.reposById(repoIds, actor, db));
    const rows = await db
      .select({ projectId: projectIssues.projectId, closed: issues.isClosed, n: count() })
      .from(projectIssues)
      .innerJoin(issues, eq(issues.id, projectIssues.issueId))
      .where(and(onBoards, visible))
      .groupBy(projectIssues.projectId, issues.isClosed);
    for (const r of rows) {
      const c = out.get(r.projectId)!;
      if (r.closed) c.closed += r.n;
      else c.open += r.n;
    }
    return out;
  }
}
