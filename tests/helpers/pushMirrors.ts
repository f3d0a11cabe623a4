// Push mirrors (#39): a private repository with one user per role that matters (repository admins may
// manage its push mirrors, writers and readers get 403, outsiders 404), and a second anvil on 127.0.0.1
// to push to.
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { gitWorkspace } from './events.js';
import { startApp, type TestApp } from './harness.js';
import { migrationEnv } from './migrations.js';
import { actor, addCollaborator, siteAdmin, userRepo, type Actor, type Repository } from './repos.js';

export type PushMirror = components['schemas']['PushMirror'];

/** The app's settings: loopback remotes allowed (refused by default), no minimum interval. */
export const pushMirrorEnv = migrationEnv;

export interface PushMirrorWorld {
  app: TestApp;
  owner: Actor;
  /** A collaborator with admin access. */
  repoAdmin: Actor;
  writer: Actor;
  reader: Actor;
  outsider: Actor;
  siteAdmin: Actor;
  /** Private, with one commit. */
  repo: Repository;
  path: { owner: string; repo: string };
  /** POST …/push_mirrors as `auth` (the owner by default). */
  add(body: components['schemas']['CreatePushMirrorOption'], auth?: string, path?: { owner: string; repo: string }): ReturnType<ReturnType<TestApp['client']>['POST']>;
}

export async function pushMirrorWorld(app: TestApp): Promise<PushMirrorWorld> {
  const [owner, repoAdmin, writer, reader, outsider, admin] = await Promise.all([actor(app), actor(app), actor(app), actor(app), actor(app), siteAdmin(app)]);
  const repo = await userRepo(app, owner, { auto_init: true, private: true });
  await Promise.all([addCollaborator(app, repo, repoAdmin, 'admin'), addCollaborator(app, repo, writer, 'write'), addCollaborator(app, repo, reader, 'read')]);
  const path = { owner: owner.username, repo: repo.name };
  return {
    app, owner, repoAdmin, writer, reader, outsider, siteAdmin: admin, repo, path,
    add: (body, auth = owner.auth, at = path) => app.client(auth).POST('/repos/{owner}/{repo}/push_mirrors', { params: { path: at }, body }),
  };
}

/** A second anvil with an empty repository to push to, and its owner's password for the mirror. */
export interface PushTarget {
  app: TestApp;
  user: Actor;
  repo: Repository;
  /** The repository's clone address (no credentials). */
  url: string;
  /** The refs of the repository (`refs/heads/…`, `refs/tags/…`) and their targets. */
  refs(): Promise<Map<string, string>>;
  close(): Promise<void>;
}

export async function startTarget(): Promise<PushTarget> {
  const app = await startApp();
  const user = await actor(app);
  const repo = await userRepo(app, user, { private: true });
  const ws = gitWorkspace(app);
  const url = `${app.url}/${user.username}/${repo.name}.git`;
  return {
    app, user, repo, url,
    async refs() {
      const out = await ws.must(['ls-remote', '--heads', '--tags', ws.remote(user, user.username, repo.name)]);
      return new Map(out.split('\n').filter(Boolean).map((l) => l.split('\t') as [string, string]).map(([sha, ref]) => [ref, sha]));
    },
    async close() {
      ws.close();
      await app.close();
    },
  };
}

/** The answer's status is `status`, with the error shown when it is not. */
export function statusIs(res: { response: Response; error?: unknown }, status: number, what = ''): void {
  assert.is(res.response.status, status, `${what} ${JSON.stringify(res.error)}`);
}
