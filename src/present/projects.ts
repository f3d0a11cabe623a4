// Projects and columns as the caller sees them: creators and visible issue counts for a page in a fixed
// number of queries, then convert.
import { toProject, toProjectColumn } from '../convert/project.js';
import type { components } from '../../generated/openapi.js';
import type { ProjectColumnRow, ProjectRow } from '../db/schema/index.js';
import type { IssueDetails } from '../services/issues/issueDetails.js';
import type { Config } from '../config.js';
import type { Services } from '../services/index.js';
import type { Auth } from '../permissions/caller.js';

type Ctx = { services: Services; auth: Auth; config: Config };
type Project = components['schemas']['Project'];

/** Projects with their owners, creators and the issue counts the caller sees: three queries and the counts'. */
export async function presentProjects(req: Ctx, rows: ProjectRow[]) {
  const [people, counts] = await Promise.all([
    req.services.projects.creators(rows.flatMap((p) => [p.creatorId, p.ownerId])),
    req.services.projects.counts(rows.map((p) => p.id), req.auth.actor),
  ]);
  return rows.map((p) => toProject(p, people.get(p.ownerId)!, people.get(p.creatorId), counts.get(p.id)!, req.auth.actor, req.config));
}

export async function presentProject(req: Ctx, row: ProjectRow) {
  return (await presentProjects(req, [row]))[0]!;
}

/** The projects of a page of issues, by project id; nothing is read when no issue is on a board. */
export async function projectsOfIssues(req: Ctx, details: Iterable<IssueDetails>): Promise<Map<number, Project>> {
  const rows = new Map<number, ProjectRow>();
  for (const d of details) for (const p of d.projects) rows.set(p.id, p);
  if (rows.size === 0) return new Map();
  const shown = await presentProjects(req, [...rows.values()]);
  return new Map(shown.map((p) => [p.id, p]));
}

export const projectsOf = (d: IssueDetails, shown: Map<number, Project>): Project[] => d.projects.map((p) => shown.get(p.id)!);

export async function presentColumns(req: Ctx, rows: ProjectColumnRow[]) {
  const creators = await req.services.projects.creators(rows.map((c) => c.creatorId));
  return rows.map((c) => toProjectColumn(c, creators.get(c.creatorId), req.auth.actor, req.config));
}

export async function presentColumn(req: Ctx, row: ProjectColumnRow) {
  return (await presentColumns(req, [row]))[0]!;
}
