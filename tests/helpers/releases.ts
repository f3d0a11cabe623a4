// Release fixtures: a public and a private repository of one owner with a writer and a reader, typed
// calls for the release operations, and asset uploads (multipart, as tests/helpers/attachments.ts).
import * as assert from 'uvu/assert';
import { eq } from 'drizzle-orm';
import type { components } from '../../generated/openapi.js';
import { repositories } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { dirOf, repoFor, roles, type Roles } from './gitFixtures.js';
import { pathOf, type Actor, type Repository } from './repos.js';

export type Release = components['schemas']['Release'];
export type CreateReleaseOption = components['schemas']['CreateReleaseOption'];
export type EditReleaseOption = components['schemas']['EditReleaseOption'];

export interface ReleaseWorld {
  r: Roles;
  repo: Repository;
  priv: Repository;
  path: { owner: string; repo: string };
  privPath: { owner: string; repo: string };
  dir: string;
  /** `{ROOT_URL}api/v1/repos/{owner}/{repo}` and `{ROOT_URL}{owner}/{repo}` of the public repository. */
  api: string;
  html: string;
}

export async function releaseWorld(app: TestApp): Promise<ReleaseWorld> {
  const r = await roles(app);
  const [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  return {
    r, repo, priv, path: pathOf(repo), privPath: pathOf(priv), dir: dirOf(app, repo),
    api: `${app.config.rootUrl}api/v1/repos/${repo.full_name}`, html: `${app.config.rootUrl}${repo.full_name}`,
  };
}

export function createRelease(app: TestApp, path: { owner: string; repo: string }, body: CreateReleaseOption, as?: Actor) {
  return app.client(as?.auth).POST('/repos/{owner}/{repo}/releases', { params: { path }, body });
}

/** Creates a release that must succeed (201). */
export async function newRelease(app: TestApp, path: { owner: string; repo: string }, body: CreateReleaseOption, as: Actor): Promise<Release> {
  const res = await createRelease(app, path, body, as);
  assert.is(res.response.status, 201, `create release ${body.tag_name}: ${JSON.stringify(res.error)}`);
  return res.data!;
}

export function editRelease(app: TestApp, path: { owner: string; repo: string }, id: number, body: EditReleaseOption, as?: Actor) {
  return app.client(as?.auth).PATCH('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...path, id } }, body });
}

/** POST .../releases/{id}/assets; `null` sends a form without the attachment part. */
export function uploadAsset(app: TestApp, path: { owner: string; repo: string }, id: number, file: { filename?: string; content?: string } | null, as?: Actor, name?: string) {
  const form = new FormData();
  if (file === null) form.append('other', 'no file here');
  else form.append('attachment', new Blob([file.content ?? 'asset bytes\n']), file.filename ?? 'asset.txt');
  return app.client(as?.auth).POST('/repos/{owner}/{repo}/releases/{id}/assets', {
    params: { path: { ...path, id }, query: name === undefined ? {} : { name } },
    body: form as unknown as { attachment: string },
  });
}

/** `repositories.num_releases` as stored. */
export async function numReleases(app: TestApp, repoId: number): Promise<number> {
  const [row] = await app.services.deps.db.select({ n: repositories.numReleases }).from(repositories).where(eq(repositories.id, repoId));
  return row!.n;
}

/** Sets the repository's releases unit on or off (repoEdit has tests of its own). */
export async function setReleasesUnit(app: TestApp, repo: Repository, by: Actor, on: boolean): Promise<void> {
  const res = await app.client(by.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(repo) }, body: { has_releases: on } });
  assert.is(res.response.status, 200, `has_releases: ${JSON.stringify(res.error)}`);
}
