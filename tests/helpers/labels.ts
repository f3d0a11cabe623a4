// Fixtures for the label, issue-label, milestone and issue-search tests: the labels of an issue as the
// API shows them, the stored counters of a label, and an organization with a repository and labels.
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { labels } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { orgRepo, orgWorld, pathOf, type OrgWorld } from './repos.js';
import type { Actor } from './repos.js';
import type { Label, Repo } from './issues.js';

/** The names of an issue's labels (GET .../issues/{index}/labels as the repository's owner or `as`). */
export async function labelNamesOf(app: TestApp, repo: Repo, index: number, as: Actor): Promise<string[]> {
  const r = await app.client(as.auth).GET('/repos/{owner}/{repo}/issues/{index}/labels', { params: { path: { ...repo.path, index } } });
  assert.is(r.response.status, 200, `GET issue labels: ${r.response.status}`);
  return r.data!.map((l) => l.name);
}

/** A label's stored counters, `[open + closed issues, closed issues]`. */
export async function labelCounters(app: TestApp, id: number): Promise<[number, number]> {
  const [row] = await app.services.deps.db.select().from(labels).where(eq(labels.id, id));
  assert.ok(row, `label ${id} exists`);
  return [row!.numIssues, row!.numClosedIssues];
}

export async function newOrgLabel(app: TestApp, org: string, as: Actor, body: Partial<components['schemas']['CreateLabelOption']> = {}): Promise<Label> {
  const r = await app.client(as.auth).POST('/orgs/{org}/labels', { params: { path: { org } }, body: { name: 'org-bug', color: '#ee0701', ...body } });
  assert.is(r.response.status, 201, `POST org label: ${JSON.stringify(r.error)}`);
  return r.data!;
}

/** An organization (see `orgWorld`) with one repository of it. */
export async function orgWithRepo(app: TestApp, visibility: 'public' | 'private' = 'public', reuse?: OrgWorld): Promise<{ w: OrgWorld; repo: Repo }> {
  const w = await orgWorld(app, visibility, reuse);
  const repo = await orgRepo(app, w.name, w.owner);
  return { w, repo: { ...repo, path: pathOf(repo) } };
}
