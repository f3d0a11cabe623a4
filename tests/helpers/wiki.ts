// Wiki fixtures: a public and a private repository with the usual roles, pages made through the API, and
// the wiki's bare repository on disk (for pages pushed "over git").
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { disk, repoFor, roles, type Roles } from './gitFixtures.js';
import { pathOf, type Actor, type Repository } from './repos.js';

export type WikiPage = components['schemas']['WikiPage'];

export const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

export interface WikiWorld {
  r: Roles;
  repo: Repository;
  priv: Repository;
  path: { owner: string; repo: string };
  privPath: { owner: string; repo: string };
}

export async function wikiWorld(app: TestApp): Promise<WikiWorld> {
  const r = await roles(app);
  const [repo, priv] = await Promise.all([repoFor(app, r), repoFor(app, r, { private: true })]);
  return { r, repo, priv, path: pathOf(repo), privPath: pathOf(priv) };
}

export const wikiDirOf = (app: TestApp, path: { owner: string; repo: string }) =>
  join(app.config.dataDir, 'repositories', path.owner.toLowerCase(), `${path.repo.toLowerCase()}.wiki.git`);

/** A page made through the API (201). */
export async function newWikiPage(app: TestApp, path: { owner: string; repo: string }, title: string, as: Actor, content = `${title} text`): Promise<WikiPage> {
  const res = await app.client(as.auth).POST('/repos/{owner}/{repo}/wiki/new', { params: { path }, body: { title, content_base64: b64(content) } });
  assert.is(res.response.status, 201, `wiki page ${title}: ${JSON.stringify(res.error)}`);
  return res.data!;
}

/** Files committed straight into the wiki's repository, as a push over git would (the wiki must exist). */
export function pushToWiki(app: TestApp, path: { owner: string; repo: string }, branch: string, files: Record<string, string | null>): Promise<string> {
  return disk.commit(wikiDirOf(app, path), branch, files);
}
