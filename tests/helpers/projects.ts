// Fixtures for the organization project tests: an organization with a planner (a team writing projects and
// issues in every repository), a viewer (a team reading projects, with no repository), an outsider and the
// site admin; a public and a private repository with issues; projects and columns made through the API.
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { newIssue, type Issue, type Repo } from './issues.js';
import { addTeamMember, createOrg, createOrgRepo, createTeam, type Organization, type Visibility } from './orgs.js';
import { actor, pathOf, siteAdmin, type Actor } from './repos.js';

export type Project = components['schemas']['Project'];
export type ProjectColumn = components['schemas']['ProjectColumn'];

export interface ProjectWorld {
  org: Organization;
  /** Created the organization (Owners team). */
  owner: Actor;
  /** In a team with projects and issues write on every repository. */
  planner: Actor;
  /** In a team with projects read and no repository. */
  viewer: Actor;
  /** Signed in, not a member. */
  outsider: Actor;
  admin: Actor;
  pub: Repo;
  priv: Repo;
  /** Two issues of `pub` and one of `priv`, opened by the owner. */
  issues: { pub1: Issue; pub2: Issue; priv1: Issue };
}

export async function projectWorld(app: TestApp, visibility: Visibility = 'public'): Promise<ProjectWorld> {
  const [owner, planner, viewer, outsider, admin] = await Promise.all([actor(app), actor(app), actor(app), actor(app), siteAdmin(app)]);
  const org = await createOrg(app, owner, { visibility });
  const planners = await createTeam(app, owner, org.name, {
    name: 'planners', units_map: { 'repo.projects': 'write', 'repo.issues': 'write', 'repo.code': 'read' }, includes_all_repositories: true,
  });
  const viewers = await createTeam(app, owner, org.name, { name: 'viewers', units_map: { 'repo.projects': 'read' } });
  await addTeamMember(app, owner, planners.id, planner.username);
  await addTeamMember(app, owner, viewers.id, viewer.username);
  const [pubRepo, privRepo] = await Promise.all([createOrgRepo(app, owner, org.name), createOrgRepo(app, owner, org.name, { private: true })]);
  const pub = { ...pubRepo, path: pathOf(pubRepo) };
  const priv = { ...privRepo, path: pathOf(privRepo) };
  const pub1 = await newIssue(app, pub, owner, { title: 'pub one' });
  const pub2 = await newIssue(app, pub, owner, { title: 'pub two' });
  const priv1 = await newIssue(app, priv, owner, { title: 'priv one' });
  return { org, owner, planner, viewer, outsider, admin, pub, priv, issues: { pub1, pub2, priv1 } };
}

export async function newProject(app: TestApp, w: ProjectWorld, body: Partial<components['schemas']['CreateProjectOption']> = {}, as: Actor = w.owner): Promise<Project> {
  const r = await app.client(as.auth).POST('/orgs/{org}/projects', { params: { path: { org: w.org.name } }, body: { title: 'a board', ...body } });
  assert.is(r.response.status, 201, `POST project: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function newColumn(app: TestApp, w: ProjectWorld, projectId: number, title = 'column', as: Actor = w.owner): Promise<ProjectColumn> {
  const r = await app.client(as.auth).POST('/orgs/{org}/projects/{id}/columns', { params: { path: { org: w.org.name, id: projectId } }, body: { title } });
  assert.is(r.response.status, 201, `POST column: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export const putIssue = (app: TestApp, w: ProjectWorld, projectId: number, columnId: number, issueId: number, as: Actor = w.owner) =>
  app.client(as.auth).POST('/orgs/{org}/projects/{id}/columns/{column_id}/issues', {
    params: { path: { org: w.org.name, id: projectId, column_id: columnId } },
    body: { issue_id: issueId },
  });

export async function getProject(app: TestApp, w: ProjectWorld, id: number, as?: Actor): Promise<Project> {
  const r = await app.client(as?.auth).GET('/orgs/{org}/projects/{id}', { params: { path: { org: w.org.name, id } } });
  assert.is(r.response.status, 200, `GET project: ${r.response.status}`);
  return r.data!;
}

export async function columnsOf(app: TestApp, w: ProjectWorld, id: number, as: Actor = w.owner): Promise<ProjectColumn[]> {
  const r = await app.client(as.auth).GET('/orgs/{org}/projects/{id}/columns', { params: { path: { org: w.org.name, id }, query: { limit: 50 } } });
  assert.is(r.response.status, 200, `GET columns: ${r.response.status}`);
  return r.data!;
}

export async function closeProject(app: TestApp, w: ProjectWorld, id: number): Promise<void> {
  const r = await app.client(w.owner.auth).PATCH('/orgs/{org}/projects/{id}', { params: { path: { org: w.org.name, id } }, body: { state: 'closed' } });
  assert.is(r.response.status, 200, `close project: ${JSON.stringify(r.error)}`);
}

export const counts = (p: Project) => [p.num_issues, p.num_open_issues, p.num_closed_issues];
