// Resolve path parameters to domain objects, answering 404 for what the caller may not see.
import { repoStatus, type TeamRow, type UserRow } from '../db/schema/index.js';
import { canSeeOwner, type OrgViewer } from '../permissions/org.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import { canManageUser, canSeeUser } from '../permissions/users.js';
import { canSeeRepo } from '../permissions/repo.js';
import { Forbidden, NotFound } from '../services/errors.js';
import type { Auth } from './auth.js';
import type { Services } from '../services/index.js';

export async function loadUser(req: { services: Services; auth: Auth }, username: string): Promise<UserRow> {
  const user = await req.services.users.byName(username);
  if (!user || user.type === 'Organization' || !canSeeUser(req.auth.actor, user)) throw new NotFound();
  return user;
}

/** The signed-in caller; operations without anonymous access never reach a handler without one. */
export function actorOf(req: { auth: Auth }): UserRow {
  if (!req.auth.actor) throw new Error('operation reached without a signed-in caller');
  return req.auth.actor;
}

/** The user named in the path, if the caller is that user or a site administrator (Gitea's reqSelfOrAdmin). */
export async function loadSelfOrAdmin(req: { services: Services; auth: Auth }, username: string): Promise<UserRow> {
  const user = await loadUser(req, username);
  if (!canManageUser(req.auth.actor, user)) throw new Forbidden('doer should be the site admin or the user itself');
  return user;
}

/** An organization the caller may see, with the caller's place in it; 404 otherwise. */
export async function loadOrg(req: { services: Services; auth: Auth }, name: string): Promise<{ org: UserRow; viewer: OrgViewer }> {
  const org = await req.services.orgs.byName(name);
  if (!org) throw new NotFound();
  const viewer = await req.services.access.orgViewer(org.id, req.auth.actor);
  if (!canSeeOwner(org.visibility, viewer)) throw new NotFound();
  return { org, viewer };
}

/** A team the caller may see, with its organization and the caller's place in it; 404 otherwise. */
export async function loadTeam(req: { services: Services; auth: Auth }, id: number): Promise<{ team: TeamRow; org: UserRow; viewer: OrgViewer }> {
  const team = await req.services.teams.byId(id);
  if (!team) throw new NotFound();
  const org = (await req.services.users.byId(team.orgId))!;
  const viewer = await req.services.access.orgViewer(org.id, req.auth.actor);
  if (!canSeeOwner(org.visibility, viewer) || !(await req.services.teams.visibleTo(team, viewer))) throw new NotFound();
  return { team, org, viewer };
}

/** A repository the caller may see, with its owner and the caller's permission; 404 otherwise. */
/** `beingMigrated`: also a repository whose migration runs (only `GET /repos/{owner}/{repo}` shows it, as Gitea). */
export function loadRepo(req: { services: Services; auth: Auth }, owner: string, repo: string, opts: { beingMigrated?: boolean } = {}): Promise<LoadedRepo> {
  if (req.auth.task) return req.services.repos.loadForTask(owner, repo, req.auth.task);
  return req.services.repos.load(owner, repo, req.auth.actor, opts);
}

/** Any account by name (user or organization), for operations that name a target user; 404 if invisible. */
export async function loadAccount(req: { services: Services; auth: Auth }, name: string): Promise<UserRow> {
  const user = await req.services.users.byName(name);
  if (!user || !(await req.services.access.canSeeOwner(user, req.auth.actor))) throw new NotFound();
  return user;
}

/** A repository by id that the caller may see, with its owner and the caller's permission; 404 otherwise. */
export async function loadRepoById(req: { services: Services; auth: Auth }, id: number): Promise<LoadedRepo> {
  const found = (await req.services.access.reposById([id], req.auth.actor)).get(id);
  if (!found || !canSeeRepo(found.perm) || found.repo.status !== repoStatus.ready) throw new NotFound();
  return { repo: found.repo, owner: found.owner, perm: found.perm };
}

/** An organization the caller may see and owns, or any one to a site administrator (Gitea's reqOrgOwnership); 403 to others. */
export async function loadOwnedOrg(req: { services: Services; auth: Auth }, name: string): Promise<{ org: UserRow; viewer: OrgViewer }> {
  const found = await loadOrg(req, name);
  if (!found.viewer.isOwner && !req.auth.actor?.isAdmin) throw new Forbidden('Must be an organization owner');
  return found;
}

/**
 * The owner of the packages named in the path, if the caller may read them (404 otherwise, as for what
 * the caller may not see); `write` also needs write access to them (403 for a reader, as Gitea's API).
 */
export async function loadPackageOwner(req: { services: Services; auth: Auth }, ownerName: string, need: 'read' | 'write' = 'read'): Promise<UserRow> {
  const { owner, access } = await req.services.packages.ownerAccess(ownerName, req.auth.actor);
  if (!owner || access === 'none') throw new NotFound();
  if (need === 'write' && access !== 'write') throw new Forbidden('user should have specific permission or be a site admin');
  return owner;
}

/** A package of an owner whose packages the caller may read (`need` as loadPackageOwner); 404 otherwise. */
export async function loadPackage(req: { services: Services; auth: Auth }, p: { owner: string; type: string; name: string }, need: 'read' | 'write' = 'read') {
  const owner = await loadPackageOwner(req, p.owner, need);
  const pkg = await req.services.packages.findPackage(owner.id, p.type, p.name);
  if (!pkg) throw new NotFound();
  return { owner, pkg };
}

/** A version of a package the caller may read (`need` as loadPackageOwner); 404 otherwise. */
export async function loadPackageVersion(req: { services: Services; auth: Auth }, p: { owner: string; type: string; name: string; version: string }, need: 'read' | 'write' = 'read') {
  const owner = await loadPackageOwner(req, p.owner, need);
  const found = await req.services.packages.findVersion(owner.id, p.type, p.name, p.version);
  if (!found) throw new NotFound();
  return { owner, ...found };
}
