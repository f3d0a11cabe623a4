// One world for the per-operation webhook tests: a private repository with an admin, a writer and a
// reader collaborator; an organisation with its owner and a plain member; one hook of each scope with a
// pending delivery (no worker runs here, and the hooks point at a closed port, so nothing is sent).
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import { adminHook, hookBody, orgHook, repoHook, type Hook } from './hooks.js';
import { actor, addCollaborator, orgRepo, pathOf, siteAdmin, userRepo, type Actor, type Repository } from './repos.js';

export const deadUrl = 'http://127.0.0.1:9/hook';

export interface HookWorld {
  owner: Actor;
  repoAdmin: Actor;
  writer: Actor;
  reader: Actor;
  outsider: Actor;
  admin: Actor;
  repo: Repository;
  path: { owner: string; repo: string };
  /** Another repository of the owner, for hooks that are not this repository's. */
  other: { owner: string; repo: string };
  org: string;
  orgOwner: Actor;
  member: Actor;
  /** `user`: a hook of `owner` (`/user/hooks`), for every repository they own. */
  hooks: { repo: Hook; org: Hook; admin: Hook; otherRepo: Hook; user: Hook };
  deliveries: { repo: number; org: number; admin: number };
}

async function firstDelivery(app: TestApp, scope: 'repo' | 'org' | 'admin', hookId: number): Promise<number> {
  const { hookDeliveries } = await import('../../src/db/schema/index.js');
  const { eq } = await import('drizzle-orm');
  const [d] = await app.services.deps.db.select().from(hookDeliveries).where(eq(hookDeliveries.hookId, hookId));
  assert.ok(d, `a ${scope} hook delivery`);
  return d!.id;
}

export async function hookWorld(app: TestApp): Promise<HookWorld> {
  const [owner, repoAdmin, writer, reader, outsider, orgOwner, member, admin] = await Promise.all([
    actor(app), actor(app), actor(app), actor(app), actor(app), actor(app), actor(app), siteAdmin(app),
  ]);
  const repo = await userRepo(app, owner, { auto_init: true, private: true });
  const otherRepo = await userRepo(app, owner, { auto_init: true });
  await Promise.all([addCollaborator(app, repo, repoAdmin, 'admin'), addCollaborator(app, repo, writer, 'write'), addCollaborator(app, repo, reader, 'read')]);
  const path = pathOf(repo);
  const org = (await app.client(orgOwner.auth).POST('/orgs', { body: { username: `hw${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}` } })).data!.username;
  // The org's plain member: a team without hook rights.
  const team = await app.client(orgOwner.auth).POST('/orgs/{org}/teams', { params: { path: { org } }, body: { name: 'readers', permission: 'read', units: ['repo.code'] } });
  assert.is(team.response.status, 201);
  const add = await app.client(orgOwner.auth).PUT('/teams/{id}/members/{username}', { params: { path: { id: team.data!.id, username: member.username } } });
  assert.is(add.response.status, 204);
  const repoH = await repoHook(app, owner.auth, path, hookBody(deadUrl, { events: ['create', 'push'] }));
  const otherH = await repoHook(app, owner.auth, pathOf(otherRepo), hookBody(deadUrl));
  const userH = await app.client(owner.auth).POST('/user/hooks', { body: hookBody(deadUrl, { events: ['issues'] }) });
  assert.is(userH.response.status, 201);
  const orgH = await orgHook(app, orgOwner.auth, org, hookBody(deadUrl, { events: ['repository'] }));
  const adminH = await adminHook(app, admin.auth, hookBody(deadUrl, { events: ['repository'], config: { url: deadUrl, content_type: 'json', is_system_webhook: 'true' } }));
  const t = await app.client(owner.auth).POST('/repos/{owner}/{repo}/hooks/{id}/tests', { params: { path: { ...path, id: repoH.id } } });
  assert.is(t.response.status, 204);
  await orgRepo(app, org, orgOwner);
  return {
    owner, repoAdmin, writer, reader, outsider, admin, repo, path, other: pathOf(otherRepo), org, orgOwner, member,
    hooks: { repo: repoH, org: orgH, admin: adminH, otherRepo: otherH, user: userH.data! },
    deliveries: { repo: await firstDelivery(app, 'repo', repoH.id), org: await firstDelivery(app, 'org', orgH.id), admin: await firstDelivery(app, 'admin', adminH.id) },
  };
}

/** Who may manage each scope's hooks, who is refused (403), and who cannot see the scope at all (404). */
export function rolesOf(w: HookWorld, scope: 'repo' | 'org' | 'admin' | 'user') {
  // Everyone manages their own hooks: another user's are 404 to them, never 403.
  if (scope === 'user') return { allowed: [w.owner], forbidden: [] as Actor[], hidden: [] as Actor[] };
  if (scope === 'repo') return { allowed: [w.owner, w.repoAdmin, w.admin], forbidden: [w.writer, w.reader], hidden: [w.outsider] };
  if (scope === 'org') return { allowed: [w.orgOwner, w.admin], forbidden: [w.member, w.outsider], hidden: [] as Actor[] };
  return { allowed: [w.admin], forbidden: [w.owner, w.orgOwner], hidden: [] as Actor[] };
}
