// Organization fixtures built through the API (orgCreate, orgCreateTeam, orgAddTeamMember and
// createOrgRepo have tests of their own): an org with one person in every role that matters.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { orgMembers } from '../../src/db/schema/index.js';
import type { TestApp, TestUser } from './harness.js';

export type Organization = components['schemas']['Organization'];
export type Team = components['schemas']['Team'];
export type Repository = components['schemas']['Repository'];
export type CreateTeamOption = components['schemas']['CreateTeamOption'];
export type Visibility = 'public' | 'limited' | 'private';

/** A user with an all-scope token: `auth` is much cheaper than Basic (no scrypt per request). */
export type Actor = TestUser & { auth: string };

export async function actor(app: TestApp, opts?: Parameters<TestApp['user']>[0]): Promise<Actor> {
  const user = await app.user(opts);
  return { ...user, auth: await app.token(user, ['all']) };
}

const adminActors = new WeakMap<TestApp, Actor>();
export async function adminActor(app: TestApp): Promise<Actor> {
  let a = adminActors.get(app);
  if (!a) {
    a = { ...app.admin, auth: await app.token(app.admin, ['all']) };
    adminActors.set(app, a);
  }
  return a;
}

const authOf = (by: TestUser | Actor) => ('auth' in by ? by.auth : by.basic);

export const fresh = (prefix = 'o') => `${prefix}${randomBytes(4).toString('hex')}`;
export const messageOf = (error: unknown) => (error as { message: string }).message;

export const allUnits = [
  'repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki',
  'repo.projects', 'repo.packages', 'repo.actions', 'repo.ext_issues', 'repo.ext_wiki',
] as const;

/** Every unit at `mode`, the external tracker and wiki at read (Owners and admin teams). */
export const unitsAt = (mode: 'admin' | 'owner') =>
  Object.fromEntries(allUnits.map((u) => [u, u.startsWith('repo.ext_') ? 'read' : mode]));

export async function createOrg(app: TestApp, owner: TestUser | Actor, over: Partial<components['schemas']['CreateOrgOption']> = {}): Promise<Organization> {
  const res = await app.client(authOf(owner)).POST('/orgs', { body: { username: fresh('org'), ...over } });
  assert.is(res.response.status, 201, `create org: ${JSON.stringify(res.error)}`);
  return res.data!;
}

export async function createTeam(app: TestApp, by: TestUser | Actor, org: string, over: Partial<CreateTeamOption> = {}): Promise<Team> {
  const res = await app.client(authOf(by)).POST('/orgs/{org}/teams', {
    params: { path: { org } },
    body: { name: fresh('team'), units_map: { 'repo.code': 'read' }, ...over },
  });
  assert.is(res.response.status, 201, `create team: ${JSON.stringify(res.error)}`);
  return res.data!;
}

export async function addTeamMember(app: TestApp, by: TestUser | Actor, teamId: number, username: string): Promise<void> {
  const res = await app.client(authOf(by)).PUT('/teams/{id}/members/{username}', { params: { path: { id: teamId, username } } });
  assert.is(res.response.status, 204, `add team member: ${JSON.stringify(res.error)}`);
}

export async function createOrgRepo(app: TestApp, by: TestUser | Actor, org: string, over: Partial<components['schemas']['CreateRepoOption']> = {}): Promise<Repository> {
  const res = await app.client(authOf(by)).POST('/orgs/{org}/repos', { params: { path: { org } }, body: { name: fresh('repo'), ...over } });
  assert.is(res.response.status, 201, `create repo: ${JSON.stringify(res.error)}`);
  return res.data!;
}

/** Sets Gitea's "public member" flag directly (orgPublicizeMember has tests of its own). */
export async function publicizeMember(app: TestApp, orgId: number, userId: number): Promise<void> {
  await app.services.deps.db.update(orgMembers).set({ isPublic: true }).where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId)));
}

export interface OrgWorld {
  org: Organization;
  /** Created the org: in the Owners team. */
  owner: Actor;
  /** In `readers` (code read, private team, may not create repositories). */
  member: Actor;
  /** In `creators` (code write, may create repositories). */
  creator: Actor;
  /** Signed in, not a member. */
  outsider: Actor;
  owners: Team;
  readers: Team;
  creators: Team;
}

/** `people`: reuse these users in the new org's roles (creating users is slow: scrypt). */
export async function orgWorld(
  app: TestApp,
  visibility: Visibility = 'public',
  people?: Pick<OrgWorld, 'owner' | 'member' | 'creator' | 'outsider'>,
): Promise<OrgWorld> {
  const [owner, member, creator, outsider] = people
    ? [people.owner, people.member, people.creator, people.outsider]
    : await Promise.all([actor(app), actor(app), actor(app), actor(app)]);
  const org = await createOrg(app, owner!, { visibility });
  const readers = await createTeam(app, owner!, org.name, { name: 'readers', units_map: { 'repo.code': 'read' } });
  const creators = await createTeam(app, owner!, org.name, { name: 'creators', units_map: { 'repo.code': 'write' }, can_create_org_repo: true });
  await addTeamMember(app, owner!, readers.id, member!.username);
  await addTeamMember(app, owner!, creators.id, creator!.username);
  const teams = await app.client(owner!.auth).GET('/orgs/{org}/teams', { params: { path: { org: org.name } } });
  const ownersId = teams.data!.find((t) => t.name === 'Owners')!.id;
  const owners = (await app.client(owner!.auth).GET('/teams/{id}', { params: { path: { id: ownersId } } })).data!;
  return { org, owner: owner!, member: member!, creator: creator!, outsider: outsider!, owners, readers, creators };
}

/** An RFC 5988 Link header as rel → {page, limit}. */
export function linksOf(header: string | null): Record<string, { page: number; limit: number }> {
  const out: Record<string, { page: number; limit: number }> = {};
  for (const part of (header ?? '').split(',').filter(Boolean)) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (!m) continue;
    const url = new URL(m[1]!);
    out[m[2]!] = { page: Number(url.searchParams.get('page')), limit: Number(url.searchParams.get('limit')) };
  }
  return out;
}
