// Factories for the repository and organization tests: an organization with one user per role, repositories
// created through the API, collaborators, raw requests the typed client would refuse to send, and the
// real `git` CLI to look at what landed on disk.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TeamRow, UserRow, Visibility } from '../../src/db/schema/index.js';
import { addOrgMember } from '../../src/services/orgs/orgs.js';
import type { TestApp, TestUser } from './harness.js';

export type Repository = components['schemas']['Repository'];
export type CreateRepoOption = components['schemas']['CreateRepoOption'];

export const fresh = (prefix = 'r') => `${prefix}${randomBytes(4).toString('hex')}`;
export const messageOf = (error: unknown) => (error as { message: string }).message;
export const swaggerOf = (app: TestApp) => `${app.config.rootUrl}api/swagger`;

export async function rowOf(app: TestApp, user: TestUser): Promise<UserRow> {
  return (await app.services.users.byId(user.id))!;
}

/**
 * A user with an all-scope token in `auth`. Tests sign in with tokens: Basic sign-in runs scrypt on
 * every request, which would make the files slow.
 */
export interface Actor extends TestUser {
  auth: string;
}

export async function actor(app: TestApp, user?: TestUser | Parameters<TestApp['user']>[0]): Promise<Actor> {
  const u = user && 'basic' in user ? user : await app.user(user);
  return { ...u, auth: await app.token(u) };
}

const adminTokens = new WeakMap<TestApp, Promise<Actor>>();
/** The site admin of `app` as an Actor (one token per app). */
export function siteAdmin(app: TestApp): Promise<Actor> {
  let a = adminTokens.get(app);
  if (!a) adminTokens.set(app, (a = actor(app, app.admin)));
  return a;
}

/**
 * An organization with one user for each role that matters to repository operations:
 * - owner: created the org (Owners team);
 * - creator: in a write team with can_create_org_repo, on no repository by itself;
 * - reader: in a read team that includes every repository, without can_create_org_repo;
 * - teamAdmin: in an admin team that includes every repository, without can_create_org_repo;
 * - member: a member of the organization in no team;
 * - outsider: signed in, not in the organization.
 */
export interface OrgWorld {
  org: UserRow;
  name: string;
  owner: Actor;
  creator: Actor;
  reader: Actor;
  teamAdmin: Actor;
  member: Actor;
  outsider: Actor;
  teams: { creators: TeamRow; readers: TeamRow; admins: TeamRow };
}

/** A new organization; with `reuse`, the same accounts play the same roles in it (new accounts cost a password hash each). */
export async function orgWorld(app: TestApp, visibility: Visibility = 'public', reuse?: OrgWorld): Promise<OrgWorld> {
  const [owner, creator, reader, teamAdmin, member, outsider] = reuse
    ? [reuse.owner, reuse.creator, reuse.reader, reuse.teamAdmin, reuse.member, reuse.outsider]
    : await Promise.all([actor(app), actor(app), actor(app), actor(app), actor(app), actor(app)]);
  const ownerRow = await rowOf(app, owner);
  const name = fresh('org');
  const org = await app.services.orgs.create(ownerRow, { username: name, visibility });
  const s = app.services.teams;
  const creators = (await s.create(org, { name: 'Creators', permission: 'write', units: ['repo.code', 'repo.issues'], canCreateOrgRepo: true })).team;
  const readers = (await s.create(org, { name: 'Readers', permission: 'read', units: ['repo.code', 'repo.issues'], includesAllRepositories: true })).team;
  const admins = (await s.create(org, { name: 'Admins', permission: 'admin', includesAllRepositories: true })).team;
  const viewer = { user: ownerRow, isMember: true, isOwner: true };
  await s.addMember(creators, viewer, await rowOf(app, creator));
  await s.addMember(readers, viewer, await rowOf(app, reader));
  await s.addMember(admins, viewer, await rowOf(app, teamAdmin));
  await addOrgMember(app.services.deps.db, org.id, member.id);
  return { org, name, owner, creator, reader, teamAdmin, member, outsider, teams: { creators, readers, admins } };
}

/** Creates a repository for `owner` through POST /user/repos; answers the created Repository. */
export async function userRepo(app: TestApp, owner: Actor, body: Partial<CreateRepoOption> = {}): Promise<Repository> {
  const r = await app.client(owner.auth).POST('/user/repos', { body: { name: fresh('repo'), ...body } });
  assert.is(r.response.status, 201, `POST /user/repos: ${JSON.stringify(r.error)}`);
  return r.data!;
}

/** Creates a repository in `org` through POST /orgs/{org}/repos as `as`. */
export async function orgRepo(app: TestApp, org: string, as: Actor, body: Partial<CreateRepoOption> = {}): Promise<Repository> {
  const r = await app.client(as.auth).POST('/orgs/{org}/repos', { params: { path: { org } }, body: { name: fresh('repo'), ...body } });
  assert.is(r.response.status, 201, `POST /orgs/${org}/repos: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export type CollabMode = 'read' | 'write' | 'admin';

/** Adds `user` as a collaborator of `repo` (full name) with `permission`, as the site admin. */
export async function addCollaborator(app: TestApp, repo: Repository, user: TestUser, permission: CollabMode): Promise<void> {
  const [owner, name] = repo.full_name.split('/') as [string, string];
  const r = await app.client((await siteAdmin(app)).auth).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { owner, repo: name, collaborator: user.username } },
    body: { permission },
  });
  assert.is(r.response.status, 204, `PUT collaborator: ${JSON.stringify(r.error)}`);
}

export const pathOf = (repo: Repository) => {
  const [owner, name] = repo.full_name.split('/') as [string, string];
  return { owner, repo: name };
};

/** GET /repos/{owner}/{repo} as `authorization`; answers status and body. */
export async function getRepo(app: TestApp, owner: string, repo: string, authorization?: string) {
  return app.client(authorization).GET('/repos/{owner}/{repo}', { params: { path: { owner, repo } } });
}

/** The permission of `user` on the repository, asked by the site admin. */
export async function permissionOf(app: TestApp, repo: Repository, user: TestUser | string): Promise<string> {
  const r = await app.client((await siteAdmin(app)).auth).GET('/repos/{owner}/{repo}/collaborators/{collaborator}/permission', {
    params: { path: { ...pathOf(repo), collaborator: typeof user === 'string' ? user : user.username } },
  });
  assert.is(r.response.status, 200);
  return r.data!.permission;
}

/** A request the typed client would refuse to send; the body is parsed when there is one. */
export async function raw(app: TestApp, method: string, path: string, opts: { body?: string; authorization?: string } = {}) {
  const response = await fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(opts.authorization ? { Authorization: opts.authorization } : {}),
    },
    body: opts.body,
  });
  const text = await response.text();
  return { response, text, body: text ? JSON.parse(text) : undefined };
}

/** `$DATA_DIR/repositories/<owner>/<name>.git`, lower case. */
export function repoFolder(app: TestApp, owner: string, name: string): string {
  return join(app.config.dataDir, 'repositories', owner.toLowerCase(), `${name.toLowerCase()}.git`);
}

const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };

/** Runs the system `git` in `cwd` with an argument array; answers stdout. */
export function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `git fsck --strict` must succeed and report nothing. */
export function assertFsck(dir: string): void {
  const out = execFileSync('git', ['fsck', '--strict', '--no-progress'], { cwd: dir, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.is(out.trim(), '', `git fsck: ${out}`);
}

/** Clones the folder into a temp directory and hands the work tree to `fn`; removes it afterwards. */
export function withClone<T>(dir: string, fn: (work: string) => T): T {
  const parent = mkdtempSync(join(tmpdir(), 'anvil-clone-'));
  try {
    const work = join(parent, 'work');
    execFileSync('git', ['clone', '--quiet', dir, work], { env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    return fn(work);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

export const readIn = (work: string, file: string) => readFileSync(join(work, file), 'utf8');
export { existsSync };
