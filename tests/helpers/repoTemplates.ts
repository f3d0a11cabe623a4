// Shared setup for template repositories (#39): a template with a `.gitea/template`, every copyable
// thing set on it, POST …/generate, and GET /repo-avatars/{key}.
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { disk, dirOf, repoFor, type Roles } from './gitFixtures.js';
import { hookBody, repoHook } from './hooks.js';
import { pathOf, type Repository } from './repos.js';
import { b64, samplePng } from './avatars.js';

export type GenerateRepoOption = components['schemas']['GenerateRepoOption'];

/** A submodule's commit in the template (kept as a gitlink). */
export const gitlinkId = 'a'.repeat(40);

/** The template's files besides the auto-initialised README: what each `.gitea/template` rule does is checked by the tests. */
export const templateFiles = {
  '.gitea/template': '# expand these\n*.md\nsrc/**\n\n[exclude]\nprivate\n',
  'README.md': '# $REPO_NAME by ${REPO_OWNER}\nfrom $TEMPLATE_OWNER/$TEMPLATE_NAME\n'
    + 'snake $REPO_NAME_SNAKE kebab $REPO_NAME_KEBAB camel $REPO_NAME_CAMEL pascal ${REPO_NAME_PASCAL}\n'
    + 'lower $REPO_NAME_LOWER upper $REPO_NAME_UPPER title $REPO_NAME_TITLE\ncost $5 and $UNKNOWN, $ alone\n',
  'src/$REPO_NAME_SNAKE/main.go': 'package ${REPO_NAME_SNAKE}\n',
  'keep.txt': '$REPO_NAME stays\n',
  'private/secret.txt': 'left out\n',
  'link': { symlink: 'README.md' },
  'sub': { gitlink: gitlinkId },
};

/**
 * A template repository of `r.owner` (writer and reader collaborators) with `templateFiles`, a topic, a
 * label, a webhook, a branch protection of `main` and an avatar.
 */
export async function fullTemplate(app: TestApp, r: Roles): Promise<Repository> {
  const repo = await repoFor(app, r, { template: true });
  await disk.commit(dirOf(app, repo), repo.default_branch, templateFiles, { message: 'template files\n' });
  const client = app.client(r.owner.auth);
  const path = pathOf(repo);
  const checks = await Promise.all([
    client.PUT('/repos/{owner}/{repo}/topics', { params: { path }, body: { topics: ['templated'] } }),
    client.POST('/repos/{owner}/{repo}/labels', { params: { path }, body: { name: 'kind/bug', color: '#ee0701', description: 'a bug', exclusive: true } }),
    client.POST('/repos/{owner}/{repo}/branch_protections', { params: { path }, body: { rule_name: 'main', required_approvals: 2 } }),
    client.POST('/repos/{owner}/{repo}/avatar', { params: { path }, body: { image: b64(samplePng) } }),
  ]);
  for (const c of checks) assert.ok(c.response.ok, `template setup: ${c.response.status} ${JSON.stringify(c.error)}`);
  await repoHook(app, r.owner.auth, path, hookBody('http://127.0.0.1:9/template-hook', { events: ['push'] }));
  return (await client.GET('/repos/{owner}/{repo}', { params: { path } })).data!;
}

/** POST /repos/{template}/generate as `auth` (null: anonymous). */
export const generate = (app: TestApp, template: Repository, auth: string | null, body: GenerateRepoOption) =>
  app.client(auth ?? undefined).POST('/repos/{template_owner}/{template_repo}/generate', {
    params: { path: { template_owner: template.owner.login, template_repo: template.name } }, body,
  });

/** GET of a repository's avatar_url. */
export async function getRepoAvatar(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}
