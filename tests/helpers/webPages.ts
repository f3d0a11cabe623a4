// One small world for the web pages: a user and an organization, a public repository with a README
// (Markdown with XSS attempts), a folder, a binary file, a branch, a tag, an issue with a label and a
// comment, a pull request with a review, a wiki page, a release, an organization project, and a private
// repository; plus a walker that gathers every html_url (and archive URL) the API hands out for them.
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { actor, fresh, userRepo, type Actor, type Repository } from './repos.js';

export const xss = {
  script: '<script>alert("x")</script>',
  img: '<img src=x onerror="alert(1)">',
  link: '[click me](javascript:alert(1))',
};

export const readme = `# Hello *web*

Some \`inline code\` and a [safe link](https://example.com/docs).

${xss.script}

${xss.img}

${xss.link}
`;

export interface WebWorld {
  owner: Actor;
  other: Actor;
  org: components['schemas']['Organization'];
  repo: Repository;
  priv: Repository;
  issue: components['schemas']['Issue'];
  comment: components['schemas']['Comment'];
  label: components['schemas']['Label'];
  pull: components['schemas']['PullRequest'];
  release: components['schemas']['Release'];
  project: components['schemas']['Project'];
}

const ok = (r: { response: Response; error?: unknown }, what: string) => assert.ok(r.response.ok, `${what}: ${r.response.status} ${JSON.stringify(r.error)}`);
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

export async function webWorld(app: TestApp): Promise<WebWorld> {
  const [owner, other] = await Promise.all([actor(app), actor(app)]);
  const api = app.client(owner.auth);
  const orgRes = await api.POST('/orgs', { body: { username: fresh('org') } });
  ok(orgRes, 'org');
  const [repo, priv] = await Promise.all([userRepo(app, owner, { description: 'A <b>public</b> repo' }), userRepo(app, owner, { private: true })]);
  const path = { owner: owner.username, repo: repo.name };
  ok(await api.POST('/repos/{owner}/{repo}/contents', {
    params: { path },
    body: {
      message: 'first',
      files: [
        { operation: 'create', path: 'README.md', content: b64(readme) },
        { operation: 'create', path: 'docs/guide <1>.txt', content: b64('line one\n<b>line two</b>\n') },
        { operation: 'create', path: 'bin.dat', content: b64(Buffer.from([0, 1, 2, 3, 255, 0])) },
      ],
    },
  }), 'files');
  ok(await api.POST('/repos/{owner}/{repo}/contents', {
    params: { path: { owner: owner.username, repo: priv.name } },
    body: { message: 'secret', files: [{ operation: 'create', path: 'README.md', content: b64('# Secret\n') }] },
  }), 'private files');
  ok(await api.POST('/repos/{owner}/{repo}/contents', {
    params: { path },
    body: { message: 'topic work', branch: repo.default_branch, new_branch: 'feature/topic', files: [{ operation: 'create', path: 'topic.txt', content: b64('<i>topic</i>\n') }] },
  }), 'branch');
  ok(await api.POST('/repos/{owner}/{repo}/tags', { params: { path }, body: { tag_name: 'v1.0', target: repo.default_branch, message: 'first tag' } }), 'tag');
  const labelRes = await api.POST('/repos/{owner}/{repo}/labels', { params: { path }, body: { name: 'bug <x>', color: '#ee0701' } });
  ok(labelRes, 'label');
  const issueRes = await api.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'Broken <thing>', body: `Issue body\n\n${xss.script}\n\n${xss.img}\n\n${xss.link}`, labels: [labelRes.data!.id] } });
  ok(issueRes, 'issue');
  const commentRes = await app.client(other.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', {
    params: { path: { ...path, index: issueRes.data!.number } },
    body: { body: `A **comment** ${xss.script}` },
  });
  ok(commentRes, 'comment');
  const pullRes = await api.POST('/repos/{owner}/{repo}/pulls', { params: { path }, body: { head: 'feature/topic', base: repo.default_branch, title: 'Add <topic>', body: `Pull body ${xss.img}` } });
  ok(pullRes, 'pull');
  ok(await app.client(other.auth).POST('/repos/{owner}/{repo}/pulls/{index}/reviews', {
    params: { path: { ...path, index: pullRes.data!.number } },
    body: { event: 'COMMENT', body: 'Review *body*', comments: [{ path: 'topic.txt', new_position: 1, body: 'line note' }] },
  }), 'review');
  ok(await api.POST('/repos/{owner}/{repo}/wiki/new', { params: { path }, body: { title: 'Home', content_base64: b64(`# Wiki home\n\n${xss.script}\n`) } }), 'wiki');
  const releaseRes = await api.POST('/repos/{owner}/{repo}/releases', { params: { path }, body: { tag_name: 'v1.0', name: 'First <release>', body: 'Release *notes*' } });
  ok(releaseRes, 'release');
  const projectRes = await api.POST('/orgs/{org}/projects', { params: { path: { org: orgRes.data!.username! } }, body: { title: 'Board <1>', description: 'Project *notes*' } });
  ok(projectRes, 'project');
  return {
    owner, other, org: orgRes.data!, repo, priv, issue: issueRes.data!, comment: commentRes.data!, label: labelRes.data!, pull: pullRes.data!,
    release: releaseRes.data!, project: projectRes.data!,
  };
}

/** Every web URL in an API answer: `html_url`, `*_html_url`, `_links.html`, `zipball_url` and `tarball_url`. */
export function webUrlsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) webUrlsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const isUrl = k === 'html_url' || k.endsWith('_html_url') || k === 'zipball_url' || k === 'tarball_url' || (k === 'html' && typeof v === 'string');
      if (isUrl && typeof v === 'string' && v) out.add(v);
      else webUrlsIn(v, out);
    }
  }
  return out;
}

export async function getPage(app: TestApp, path: string, authorization?: string, method = 'GET') {
  const res = await fetch(path.startsWith('http') ? path : `${app.url}${path}`, { method, headers: authorization ? { Authorization: authorization } : {}, redirect: 'manual' });
  const body = method === 'HEAD' ? '' : await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, body };
}
