// Tags and tag protection rules: a world of one public and one private repository with the usual roles
// (plus a repository administrator), tags made on disk, and the rule calls the tests share.
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { dirOf, disk, repoFor, roles, type Roles } from './gitFixtures.js';
import { actor, addCollaborator, pathOf, type Actor, type Repository } from './repos.js';

export type TagProtection = components['schemas']['TagProtection'];
export type TagProtectionBody = components['schemas']['CreateTagProtectionOption'];

export interface TagWorld {
  r: Roles & { repoAdmin: Actor };
  repo: Repository;
  priv: Repository;
  path: { owner: string; repo: string };
  privPath: { owner: string; repo: string };
  dir: string;
  tip: string;
}

export async function tagWorld(app: TestApp): Promise<TagWorld> {
  const base = await roles(app);
  const repoAdmin = (await actor(app))!;
  const [repo, priv] = await Promise.all([repoFor(app, base), repoFor(app, base, { private: true })]);
  await Promise.all([addCollaborator(app, repo, repoAdmin, 'admin'), addCollaborator(app, priv, repoAdmin, 'admin')]);
  const dir = dirOf(app, repo);
  return { r: { ...base, repoAdmin }, repo, priv, path: pathOf(repo), privPath: pathOf(priv), dir, tip: (await disk.tip(dir, 'main'))! };
}

/** A lightweight (or, with a message, annotated) tag made on disk at `at`. */
export async function diskTag(dir: string, name: string, at: string, message?: string): Promise<void> {
  await disk.run(dir, message ? ['tag', '-a', '-m', message, name, at] : ['tag', name, at], {
    env: { GIT_COMMITTER_NAME: 'Tagger', GIT_COMMITTER_EMAIL: 'tagger@example.com' },
  });
}

export function createTagProtection(app: TestApp, path: { owner: string; repo: string }, body: TagProtectionBody, as?: Actor) {
  return app.client(as?.auth).POST('/repos/{owner}/{repo}/tag_protections', { params: { path }, body });
}

/** A rule that must be created (201). */
export async function protectTags(app: TestApp, path: { owner: string; repo: string }, body: TagProtectionBody, as: Actor): Promise<TagProtection> {
  const res = await createTagProtection(app, path, body, as);
  assert.is(res.response.status, 201, `tag protection: ${JSON.stringify(res.error)}`);
  return res.data!;
}
