// The repositories people watch, for the subscription lists: a watcher of a public and a private
// repository (creating a repository makes its owner watch it, as in Gitea).
import type { TestApp } from './harness.js';
import { watch } from './notifications.js';
import { actor, addCollaborator, userRepo, type Actor, type Repository } from './repos.js';

export interface Watchers {
  owner: Actor;
  /** Watches `open` then `secret` (a collaborator on it). */
  watcher: Actor;
  other: Actor;
  open: Repository;
  secret: Repository;
}

export async function watchers(app: TestApp): Promise<Watchers> {
  const [owner, watcher, other] = await Promise.all([actor(app), actor(app), actor(app)]);
  const open = await userRepo(app, owner, { name: 'open' });
  const secret = await userRepo(app, owner, { name: 'secret', private: true });
  await addCollaborator(app, secret, watcher, 'read');
  await watch(app, watcher, { owner: owner.username, repo: 'open' });
  await watch(app, watcher, { owner: owner.username, repo: 'secret' });
  return { owner, watcher, other, open, secret };
}

export async function removeCollaborator(app: TestApp, owner: Actor, repo: Repository, username: string): Promise<void> {
  const r = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { owner: owner.username, repo: repo.name, collaborator: username } },
  });
  if (r.response.status !== 204) throw new Error(`remove collaborator: ${r.response.status}`);
}
