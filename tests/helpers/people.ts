// Fixtures for the lists people walk and for organization/team administration: the organization of
// helpers/orgs.ts with a public and a private repository, and checks shared by the list operations.
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import type { TestApp } from './harness.js';
import { createOrgRepo, fresh, linksOf, orgWorld, type Actor, type OrgWorld, type Repository, type Visibility } from './orgs.js';
import { assertSpec } from './spec-check.js';
import { assertRedirects } from './redirects.js';

export interface PeopleWorld extends OrgWorld {
  /** Public repository of the org. */
  open: Repository;
  /** Private repository of the org; no team but Owners reaches it. */
  secret: Repository;
}

export async function peopleWorld(app: TestApp, visibility: Visibility = 'public', people?: Pick<OrgWorld, 'owner' | 'member' | 'creator' | 'outsider'>): Promise<PeopleWorld> {
  const w = await orgWorld(app, visibility, people);
  const open = await createOrgRepo(app, w.owner, w.org.name, { name: fresh('open') });
  const secret = await createOrgRepo(app, w.owner, w.org.name, { name: fresh('secret'), private: true });
  return { ...w, open, secret };
}

type Answer = { data?: unknown; error?: unknown; response: Response };

/** Checks the status and the body against the spec; a 404 must have an empty body. */
export async function expectStatus(op: OperationId, res: Answer, status: number, label: string): Promise<void> {
  assert.is(res.response.status, status, `${label}: ${JSON.stringify(res.error ?? '')}`);
  assertSpec(op, res);
  if (status === 404 || status === 204) assert.is(await res.response.text(), '', `${label}: empty body`);
}

/** A 200 list: its items' `key`, in order, and X-Total-Count equal to their number. */
export function expectList<T>(op: OperationId, res: Answer, key: (item: T) => unknown, expected: unknown[], label: string): T[] {
  assert.is(res.response.status, 200, `${label}: ${JSON.stringify(res.error ?? '')}`);
  assertSpec(op, res);
  const items = res.data as T[];
  assert.equal(items.map(key), expected, label);
  assert.is(res.response.headers.get('x-total-count'), String(expected.length), `${label}: X-Total-Count`);
  return items;
}

/** The first page of two items, when there are three or more: the total and the Link header. */
export function expectFirstPageOfTwo(res: Answer, total: number): void {
  assert.is(res.response.status, 200);
  assert.is((res.data as unknown[]).length, 2);
  assert.is(res.response.headers.get('x-total-count'), String(total));
  assert.equal(linksOf(res.response.headers.get('link')), { next: { page: 2, limit: 2 }, last: { page: Math.ceil(total / 2), limit: 2 } });
}

/** Wrong credentials: 401 with a message. */
export async function expect401(op: OperationId, call: (auth: string) => Promise<Answer>): Promise<void> {
  const res = await call(`token ${'c'.repeat(40)}`);
  assert.is(res.response.status, 401, 'bad token');
  assertSpec(op, res);
}

export const names = (xs: Array<{ name: string }>) => xs.map((x) => x.name);
export type { Actor };

/**
 * After renaming `from` to `to`: the repository `repo` (created with auto_init) answers under the new
 * name with its git content readable (its folder moved), and the old name is gone.
 */
export async function assertRenamedWithRepo(app: TestApp, auth: string, from: string, to: string, repo: string): Promise<void> {
  const c = app.client(auth);
  const now = await c.GET('/repos/{owner}/{repo}', { params: { path: { owner: to, repo } } });
  assert.is(now.response.status, 200, 'the repository under the new name');
  assert.is(now.data!.full_name, `${to}/${repo}`);
  const readme = await c.GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { owner: to, repo, filepath: 'README.md' } } });
  assert.is(readme.response.status, 200, 'the git content moved with it');
  if (from.toLowerCase() !== to.toLowerCase()) {
    // The old name leads to the new one (Gitea's redirect).
    await assertRedirects(app, 'GET', `/api/v1/repos/${from}/${repo}`, `/api/v1/repos/${to}/${repo}`, auth);
  }
}
