// Labels of a repository and of an organization (which the issues of all its repositories can carry).
import { and, asc, count, eq, isNull, type SQL } from 'drizzle-orm';
import { labels, type LabelRow, type UserRow } from '../../db/schema/index.js';
import type { OrgViewer } from '../../permissions/org.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { requireIssuesOrPulls, requireMilestoneWriter } from './milestones.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

/** `#rrggbb` (also accepts `rrggbb` and `#rgb`, as Gitea does); anything else is 422, not Gitea's 500. */
export function normalizeColor(color: string): string {
  const c = color.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{6}$/.test(c)) return `#${c}`;
  if (/^[0-9a-f]{3}$/.test(c)) return `#${c.split('').map((x) => x + x).join('')}`;
  throw new Invalid(`[color]: invalid color "${color}", expected #rrggbb`);
}

export interface CreateLabelInput {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  isArchived?: boolean;
}

export interface EditLabelInput {
  name?: string;
  color?: string;
  description?: string;
  exclusive?: boolean;
  isArchived?: boolean;
}

/** Where a label lives: a repository's own labels, or an organization's. */
type Owner = { repoId: number } | { orgId: number };

const ownedBy = (o: Owner): SQL =>
  'repoId' in o ? eq(labels.repoId, o.repoId) : and(eq(labels.orgId, o.orgId), isNull(labels.repoId))!;

/** Organization owners and site admins manage the organization's labels (Gitea's reqOrgOwnership). */
function requireOrgOwner(viewer: OrgViewer): void {
  if (!viewer.isOwner && !viewer.user?.isAdmin) throw new Forbidden('Must be an organization owner');
}

export class LabelService {
  constructor(private readonly deps: ServiceDeps) {}

  private async insert(o: Owner, input: CreateLabelInput): Promise<LabelRow> {
    if (!input.name.trim()) throw new Invalid('[name]: Required');
    const [row] = await this.deps.db
      .insert(labels)
      .values({
        ...('repoId' in o ? { repoId: o.repoId } : { orgId: o.orgId }),
        name: input.name,
        color: normalizeColor(input.color),
        description: input.description ?? '',
        exclusive: input.exclusive ?? false,
        isArchived: input.isArchived ?? false,
      })
      .returning();
    return row!;
  }

  private async page(o: Owner, page: { limit: number; offset: number }) {
    const where = ownedBy(o);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(labels).where(where).orderBy(asc(labels.name), asc(labels.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(labels).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  private async one(o: Owner, id: number): Promise<LabelRow> {
    const [row] = await this.deps.db.select().from(labels).where(and(ownedBy(o), eq(labels.id, id)));
    if (!row) throw new NotFound();
    return row;
  }

  /** Gitea's edit: the fields given change, a blank name is kept, and `is_archived` left out un-archives. */
  private async update(o: Owner, id: number, input: EditLabelInput): Promise<LabelRow> {
    const label = await this.one(o, id);
    const set: Partial<LabelRow> = { updatedAt: new Date(), isArchived: !!input.isArchived };
    if (input.name?.trim()) set.name = input.name;
    if (input.color !== undefined) set.color = normalizeColor(input.color);
    if (input.description !== undefined) set.description = input.description;
    if (input.exclusive !== undefined) set.exclusive = input.exclusive;
    const [row] = await this.deps.db.update(labels).set(set).where(eq(labels.id, label.id)).returning();
    return row!;
  }

  /** Deleting a label takes it off every issue (issue_labels cascade); no other counter counts labels. */
  private async remove(o: Owner, id: number): Promise<void> {
    const label = await this.one(o, id);
    await this.deps.db.delete(labels).where(eq(labels.id, label.id));
  }

  // Repository labels: read by readers of issues or pull requests, changed by their writers.

  async create(loaded: LoadedRepo, input: CreateLabelInput): Promise<LabelRow> {
    requireMilestoneWriter(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    return this.insert({ repoId: loaded.repo.id }, input);
  }

  async list(loaded: LoadedRepo, page: { limit: number; offset: number }) {
    requireIssuesOrPulls(loaded);
    return this.page({ repoId: loaded.repo.id }, page);
  }

  async get(loaded: LoadedRepo, id: number): Promise<LabelRow> {
    requireIssuesOrPulls(loaded);
    return this.one({ repoId: loaded.repo.id }, id);
  }

  async edit(loaded: LoadedRepo, id: number, input: EditLabelInput): Promise<LabelRow> {
    requireMilestoneWriter(loaded);
    const label = await this.one({ repoId: loaded.repo.id }, id);
    if (loaded.repo.isArchived) throw new RepoArchived();
    return this.update({ repoId: loaded.repo.id }, label.id, input);
  }

  async delete(loaded: LoadedRepo, id: number): Promise<void> {
    requireMilestoneWriter(loaded);
    const label = await this.one({ repoId: loaded.repo.id }, id);
    if (loaded.repo.isArchived) throw new RepoArchived();
    await this.remove({ repoId: loaded.repo.id }, label.id);
  }

  // Organization labels: read by whoever sees the organization, changed by its owners.

  async listOfOrg(org: UserRow, page: { limit: number; offset: number }) {
    return this.page({ orgId: org.id }, page);
  }

  async getOfOrg(org: UserRow, id: number): Promise<LabelRow> {
    return this.one({ orgId: org.id }, id);
  }

  async createInOrg(org: UserRow, viewer: OrgViewer, input: CreateLabelInput): Promise<LabelRow> {
    requireOrgOwner(viewer);
    return this.insert({ orgId: org.id }, input);
  }

  async editInOrg(org: UserRow, viewer: OrgViewer, id: number, input: EditLabelInput): Promise<LabelRow> {
    requireOrgOwner(viewer);
    return this.update({ orgId: org.id }, id, input);
  }

  async deleteInOrg(org: UserRow, viewer: OrgViewer, id: number): Promise<void> {
    requireOrgOwner(viewer);
    await this.remove({ orgId: org.id }, id);
  }
}
