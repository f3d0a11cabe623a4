// Shared setup of the repository-side team operations (GET|PUT|DELETE /repos/{owner}/{repo}/teams/{team}):
// the people world with a repository administrator who is no organization owner, and a user's repository.
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import { actor, adminActor, type Actor, type Repository } from './orgs.js';
import { peopleWorld, type PeopleWorld } from './people.js';

export interface RepoTeamWorld extends PeopleWorld {
  admin: Actor;
  /** An admin collaborator of `open`, in no team. */
  repoAdmin: Actor;
  /** A repository owned by `outsider`. */
  userRepo: Repository;
}

export async function repoTeamWorld(app: TestApp): Promise<RepoTeamWorld> {
  const [w, admin, repoAdmin] = await Promise.all([peopleWorld(app), adminActor(app), actor(app)]);
  const collab = await app.client(w.owner.auth).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { owner: w.org.name, repo: w.open.name, collaborator: repoAdmin.username } }, body: { permission: 'admin' },
  });
  assert.is(collab.response.status, 204);
  const made = await app.client(w.outsider.auth).POST('/user/repos', { body: { name: 'mine' } });
  assert.is(made.response.status, 201);
  return { ...w, admin, repoAdmin, userRepo: made.data! };
}

export const teamPath = (owner: string, repo: string, team: string) => ({ params: { path: { owner, repo, team } } });
