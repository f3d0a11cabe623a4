// The pages behind html_url: every web URL the API hands out opens a page; the API's visibility rules;
// everything users wrote is escaped and their Markdown rendered inert.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { seedRuns } from '../helpers/actions.js';
import { userRepo } from '../helpers/repos.js';
import { getPage, webUrlsIn, webWorld, xss, type WebWorld } from '../helpers/webPages.js';

let app: TestApp;
let w: WebWorld;
test.before(async () => {
  app = await startApp();
  w = await webWorld(app);
});
test.after(async () => {
  await app.close();
});

const repoPath = () => `/${w.owner.username}/${w.repo.name}`;

/** No markup a user typed survives as markup. */
function assertInert(body: string, label: string): void {
  assert.not.match(body, /<script/i, `${label}: <script>`);
  assert.not.match(body, /<img[^>]*onerror/i, `${label}: <img onerror>`);
  assert.not.match(body, /href="\s*javascript:/i, `${label}: javascript: link`);
}

test('walk: every html_url, zipball_url and tarball_url the API answers with opens a page', async () => {
  const api = app.client(w.owner.auth);
  const path = { owner: w.owner.username, repo: w.repo.name };
  const n = w.issue.number;
  const p = w.pull.number;
  const reviews = await api.GET('/repos/{owner}/{repo}/pulls/{index}/reviews', { params: { path: { ...path, index: p } } });
  const review = reviews.data![0]!;
  const [seeded] = await seedRuns(app, { id: w.repo.id, owner: { id: w.owner.id } }, w.owner.id, [{ status: 'success', jobs: ['success', 'failure'] }]);
  const answers = await Promise.all([
    api.GET('/users/{username}', { params: { path: { username: w.owner.username } } }),
    api.GET('/orgs/{org}', { params: { path: { org: w.org.username! } } }),
    api.GET('/repos/{owner}/{repo}', { params: { path } }),
    api.GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...path, index: n } } }),
    api.GET('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...path, index: n } } }),
    api.GET('/repos/{owner}/{repo}/issues', { params: { path, query: { state: 'all', type: 'pulls' } } }),
    api.GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...path, index: p } } }),
    api.GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments', { params: { path: { ...path, index: p, id: review.id } } }),
    api.GET('/repos/{owner}/{repo}/pulls/{index}/files', { params: { path: { ...path, index: p } } }),
    api.GET('/repos/{owner}/{repo}/pulls/{index}/commits', { params: { path: { ...path, index: p } } }),
    api.GET('/repos/{owner}/{repo}/commits', { params: { path, query: { limit: 5 } } }),
    api.GET('/repos/{owner}/{repo}/git/commits/{sha}', { params: { path: { ...path, sha: w.pull.head.sha } } }),
    api.GET('/repos/{owner}/{repo}/contents', { params: { path } }),
    api.GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...path, filepath: 'docs' } } }),
    api.GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...path, filepath: 'README.md' }, query: { ref: 'v1.0' } } }),
    api.GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...path, filepath: 'topic.txt' }, query: { ref: 'feature/topic' } } }),
    api.GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { ...path, pageName: 'Home' } } }),
    api.GET('/repos/{owner}/{repo}/releases', { params: { path } }),
    api.GET('/repos/{owner}/{repo}/tags', { params: { path } }),
    api.GET('/orgs/{org}/projects/{id}', { params: { path: { org: w.org.username!, id: w.project.id } } }),
    app.client(w.other.auth).GET('/user/repos'),
    api.GET('/repos/{owner}/{repo}/actions/runs/{run}', { params: { path: { ...path, run: seeded!.run.id } } }),
    api.GET('/repos/{owner}/{repo}/actions/jobs/{job_id}', { params: { path: { ...path, job_id: seeded!.jobs[1]!.id } } }),
    api.GET('/notifications', { params: { query: { all: 'true' } } }),
  ]);
  const urls = new Set<string>([review.html_url!]);
  const notifications = answers[answers.length - 1]!.data as Array<{ subject: { latest_comment_html_url: string } }>;
  assert.ok(notifications.some((t) => /#issuecomment-\d+$/.test(t.subject.latest_comment_html_url)), 'a notification with its latest comment');
  answers.forEach((a, i) => {
    assert.ok(a.response.ok, `answer ${i}: ${a.response.status}`);
    webUrlsIn(a.data, urls);
  });
  // Every shape: user, org, repo, issue, comment, pull, review, review comment, commit, file, folder, wiki, release, archive, project.
  const shapes = [/\/[^/]+$/, /\/issues\/\d+$/, /#issuecomment-\d+$/, /\/pulls\/\d+$/, /#pullrequestreview-\d+$/, /\/files#issuecomment-\d+$/, /\/commit\/[0-9a-f]{40}$/,
    /\/src\/[^?]+\/README\.md$/, /\/src\/commit\/[0-9a-f]{40}\/topic\.txt$/, /\/wiki\/Home$/, /\/releases\/tag\/v1\.0$/, /\/archive\/v1\.0\.zip$/, /\/archive\/v1\.0\.tar\.gz$/, /\/-\/projects\/\d+$/,
    /\/actions\/runs\/\d+$/, /\/actions\/runs\/\d+\/jobs\/\d+$/];
  for (const shape of shapes) assert.ok([...urls].some((u) => shape.test(u)), `no URL like ${shape}: ${[...urls].join(' ')}`);
  const pages = await Promise.all([...urls].map(async (url) => ({ url, page: await getPage(app, url.replace(/#.*$/, '')) })));
  for (const { url, page } of pages) {
    assert.ok(url.startsWith(app.config.rootUrl), url);
    assert.is(page.status, 200, `${url}: ${page.status}`);
    if (/\/archive\//.test(url)) assert.match(page.type, /^application\/(zip|gzip)/, url);
    else {
      assert.match(page.type, /^text\/html; charset=utf-8/, url);
      assert.match(page.body, /<main[^>]*>[\s\S]*<h1>/, url);
      assertInert(page.body, url);
    }
  }
});

test('repository page: the README rendered safely, the file tree, branches and tags; one layout with a CSP that forbids scripts', async () => {
  const page = await getPage(app, repoPath());
  assert.is(page.status, 200);
  assert.is(page.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:");
  assert.is(page.headers.get('x-content-type-options'), 'nosniff');
  assert.match(page.body, /<meta charset="utf-8">/);
  assert.match(page.body, /<article class="markdown readme">/);
  assert.match(page.body, /<h1>Hello <em>web<\/em><\/h1>/);
  assert.match(page.body, /<code>inline code<\/code>/);
  assert.match(page.body, /<a href="https:\/\/example\.com\/docs" rel="nofollow noopener noreferrer">safe link<\/a>/);
  assert.ok(page.body.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'), 'the script shows as text');
  assert.ok(page.body.includes('[click me](javascript:alert(1))'), 'the javascript: link is left as text');
  assertInert(page.body, 'repo');
  assert.ok(page.body.includes('A &lt;b&gt;public&lt;/b&gt; repo'), 'the description is escaped');
  assert.match(page.body, /<table class="files">[\s\S]*docs\/[\s\S]*README\.md/);
  assert.ok(page.body.includes(`href="${repoPath()}/src/branch/feature/topic"`), 'the branch');
  assert.ok(page.body.includes(`href="${repoPath()}/src/tag/v1.0"`), 'the tag');
  const head = await getPage(app, repoPath(), undefined, 'HEAD');
  assert.is(head.status, 200);
  const headArchive = await getPage(app, `${repoPath()}/archive/v1.0.zip`, undefined, 'HEAD');
  assert.is(headArchive.status, 200);
  assert.is(headArchive.type, 'application/zip');
  // An empty repository says so.
  const empty = await userRepo(app, w.owner);
  const emptyPage = await getPage(app, `/${w.owner.username}/${empty.name}`);
  assert.is(emptyPage.status, 200);
  assert.match(emptyPage.body, /This repository is empty/);
});

test('files: folders list entries, a file is escaped text with line numbers, binary files link to the raw download', async () => {
  const folder = await getPage(app, `${repoPath()}/src/branch/main/docs`);
  assert.is(folder.status, 200);
  assert.ok(folder.body.includes(`href="${repoPath()}/src/branch/main/docs/guide%20%3C1%3E.txt">guide &lt;1&gt;.txt</a>`), folder.body);
  const file = await getPage(app, `${repoPath()}/src/branch/main/docs/guide%20%3C1%3E.txt`);
  assert.is(file.status, 200);
  assert.match(file.body, /<tr id="L2"><td class="ln">2<\/td><td>&lt;b&gt;line two&lt;\/b&gt;<\/td><\/tr>/);
  // A branch name with a slash, a tag and a commit.
  const onBranch = await getPage(app, `${repoPath()}/src/branch/feature/topic/topic.txt`);
  assert.is(onBranch.status, 200);
  assert.ok(onBranch.body.includes('&lt;i&gt;topic&lt;/i&gt;'));
  assert.is((await getPage(app, `${repoPath()}/src/tag/v1.0/README.md`)).status, 200);
  assert.is((await getPage(app, `${repoPath()}/src/commit/${w.pull.head.sha}/topic.txt`)).status, 200);
  assert.is((await getPage(app, `${repoPath()}/src/commit/${w.pull.head.sha.slice(0, 10)}/topic.txt`)).status, 200);
  const bin = await getPage(app, `${repoPath()}/src/branch/main/bin.dat`);
  assert.is(bin.status, 200);
  assert.ok(bin.body.includes(`href="${repoPath()}/raw/branch/main/bin.dat"`), 'the raw link');
  const rawBin = await fetch(`${app.url}${repoPath()}/raw/branch/main/bin.dat`);
  assert.is(rawBin.status, 200);
  assert.is(rawBin.headers.get('content-type'), 'application/octet-stream');
  assert.is(rawBin.headers.get('x-content-type-options'), 'nosniff');
  assert.match(rawBin.headers.get('content-disposition')!, /^attachment; filename="bin\.dat"/);
  assert.ok(Buffer.from(await rawBin.arrayBuffer()).equals(Buffer.from([0, 1, 2, 3, 255, 0])));
  const rawText = await getPage(app, `${repoPath()}/raw/branch/main/docs/guide%20%3C1%3E.txt`);
  assert.is(rawText.status, 200);
  assert.is(rawText.type, 'text/plain; charset=utf-8');
  assert.is(rawText.body, 'line one\n<b>line two</b>\n');
  assert.is(rawText.headers.get('content-disposition'), null);
});

test('issues and pull requests: escaped titles and labels, Markdown bodies and comments rendered inert, comment anchors', async () => {
  const issue = await getPage(app, `${repoPath()}/issues/${w.issue.number}`);
  assert.is(issue.status, 200);
  assert.match(issue.body, /<h1><span class="title">Broken &lt;thing&gt;<\/span>/);
  assert.match(issue.body, /<span class="label"[^>]*>bug &lt;x&gt;<\/span>/);
  assert.match(issue.body, new RegExp(`<div class="comment" id="issuecomment-${w.comment.id}">`));
  assert.match(issue.body, /<div class="markdown"><p>A <strong>comment<\/strong> &lt;script&gt;/);
  assertInert(issue.body, 'issue');
  const list = await getPage(app, `${repoPath()}/issues`);
  assert.is(list.status, 200);
  assert.ok(list.body.includes('Broken &lt;thing&gt;'));
  assert.not.ok(list.body.includes('Add &lt;topic&gt;'), 'pull requests are not issues');
  const closed = await getPage(app, `${repoPath()}/issues?state=closed&page=2`);
  assert.is(closed.status, 200);
  assert.match(closed.body, /Nothing here/);
  // A pull request's number under /issues/ is its pull request page, as in Gitea.
  const moved = await getPage(app, `${repoPath()}/issues/${w.pull.number}`);
  assert.is(moved.status, 302);
  assert.is(moved.headers.get('location'), `${repoPath()}/pulls/${w.pull.number}`);
  const pull = await getPage(app, `${repoPath()}/pulls/${w.pull.number}`);
  assert.is(pull.status, 200);
  assert.match(pull.body, /Add &lt;topic&gt;/);
  assert.match(pull.body, /<code class="head">feature\/topic<\/code>/);
  assert.match(pull.body, /id="pullrequestreview-\d+"/);
  assert.match(pull.body, /<div class="add">\+&lt;i&gt;topic&lt;\/i&gt;<\/div>/);
  assertInert(pull.body, 'pull');
  const files = await getPage(app, `${repoPath()}/pulls/${w.pull.number}/files`);
  assert.is(files.status, 200);
  assert.match(files.body, /topic\.txt/);
  // A review's line comment is where its html_url (`/files#issuecomment-N`) points.
  assert.match(files.body, /<div class="comment" id="issuecomment-\d+">[\s\S]*<code>topic\.txt<\/code> line 1[\s\S]*<p>line note<\/p>/);
  const diff = await getPage(app, `${repoPath()}/pulls/${w.pull.number}.diff`);
  assert.is(diff.status, 200);
  assert.is(diff.type, 'text/plain; charset=utf-8');
  assert.match(diff.body, /^diff --git a\/topic\.txt b\/topic\.txt/);
  assert.is((await getPage(app, `${repoPath()}/pulls`)).status, 200);
  assert.is((await getPage(app, `${repoPath()}/pulls/${w.issue.number}`)).status, 404, 'an issue is no pull request');
});

test('other pages: commit, wiki, releases, project, actions', async () => {
  const commit = await getPage(app, `${repoPath()}/commit/${w.pull.head.sha}`);
  assert.is(commit.status, 200);
  assert.match(commit.body, /<h1>topic work<\/h1>/);
  assert.match(commit.body, /<div class="add">\+&lt;i&gt;topic&lt;\/i&gt;<\/div>/);
  for (const path of ['/wiki', '/wiki/Home']) {
    const wiki = await getPage(app, `${repoPath()}${path}`);
    assert.is(wiki.status, 200, path);
    assert.match(wiki.body, /<article class="markdown wiki-page"><h1>Wiki home<\/h1>/);
    assertInert(wiki.body, path);
  }
  const releases = await getPage(app, `${repoPath()}/releases`);
  assert.is(releases.status, 200);
  assert.ok(releases.body.includes('First &lt;release&gt;'));
  assert.ok(releases.body.includes('<em>notes</em>'));
  const project = await getPage(app, `/${w.org.username}/-/projects/${w.project.id}`);
  assert.is(project.status, 200);
  assert.match(project.body, /<h1>Board &lt;1&gt;<\/h1>/);
  const actions = await getPage(app, `${repoPath()}/actions`);
  assert.is(actions.status, 200);
  // The walk seeded run 1 (jobs: success, failure).
  assert.ok(actions.body.includes(`<a href="${repoPath()}/actions/runs/1">seeded run</a>`), actions.body);
  const run = await getPage(app, `${repoPath()}/actions/runs/1`);
  assert.is(run.status, 200);
  assert.match(run.body, /<span class="state state-failure">failure<\/span><\/td><td><a href="[^"]+\/actions\/runs\/1\/jobs\/\d+">job 1<\/a>/);
  assert.is((await getPage(app, `${repoPath()}/actions/runs/999`)).status, 404);
  assert.is((await getPage(app, `${repoPath()}/actions/runs/1/jobs/999999`)).status, 404);
  const account = await getPage(app, `/${w.owner.username}`);
  assert.is(account.status, 200);
  assert.ok(account.body.includes(`href="/${w.owner.username}/${w.repo.name}"`));
  assert.not.ok(account.body.includes(w.priv.name), 'the private repository is not listed for anonymous');
  assert.ok((await getPage(app, `/${w.owner.username}`, w.owner.basic)).body.includes(w.priv.name), 'but for its owner');
});

test('visibility: a private repository is 404 for anonymous and other users, open to its owner (Basic or ?token=)', async () => {
  const base = `/${w.owner.username}/${w.priv.name}`;
  for (const path of ['', '/src/branch/main/README.md', '/raw/branch/main/README.md', '/issues', '/pulls', '/wiki', '/releases', '/archive/main.zip', '/commit/main']) {
    const anon = await getPage(app, `${base}${path}`);
    assert.is(anon.status, 404, `anonymous ${path}`);
    assert.is(anon.body, '', `anonymous ${path}: empty body`);
    assert.is((await getPage(app, `${base}${path}`, w.other.basic)).status, 404, `other ${path}`);
  }
  const own = await getPage(app, base, w.owner.basic);
  assert.is(own.status, 200);
  assert.match(own.body, /<h1>Secret<\/h1>/);
  const token = w.owner.auth.replace(/^token /, '');
  assert.is((await getPage(app, `${base}/src/branch/main/README.md?token=${token}`)).status, 200);
  assert.is((await getPage(app, base, 'Basic bm9ib2R5Ondyb25n')).status, 401, 'wrong credentials');
  // A repository whose units are off: their pages are 404, as their API operations.
  const bare = await userRepo(app, w.owner);
  const edit = await app.client(w.owner.auth).PATCH('/repos/{owner}/{repo}', {
    params: { path: { owner: w.owner.username, repo: bare.name } },
    body: { has_issues: false, has_wiki: false, has_pull_requests: false, has_releases: false, has_actions: false },
  });
  assert.is(edit.response.status, 200);
  const bareBase = `/${w.owner.username}/${bare.name}`;
  assert.is((await getPage(app, bareBase)).status, 200);
  for (const path of ['/issues', '/pulls', '/wiki', '/releases', '/actions']) {
    assert.is((await getPage(app, `${bareBase}${path}`, w.owner.basic)).status, 404, `unit off: ${path}`);
  }
  // A private user's page is 404 to anonymous, as in the API.
  const hidden = await app.user({ visibility: 'private' });
  assert.is((await getPage(app, `/${hidden.username}`)).status, 404);
  assert.is((await getPage(app, `/${hidden.username}`, hidden.basic)).status, 200);
});

test('bad paths are 404, never 500; the routes beside the pages answer as before', async () => {
  for (const path of [
    '/nobody-here', `${repoPath()}/src/branch/main/../README.md`, `${repoPath()}/src/branch/main/%2e%2e/x`, `${repoPath()}/src/branch/main/a%00b`,
    `${repoPath()}/src/branch/nope/README.md`, `${repoPath()}/src/commit/zzzz/README.md`, `${repoPath()}/commit/0000000000000000000000000000000000000000`,
    `${repoPath()}/commit/not-a-sha`, `${repoPath()}/issues/99999`, `${repoPath()}/issues/abc`, `${repoPath()}/issues/0`, `${repoPath()}/pulls/1e3`,
    `${repoPath()}/raw/branch/main/docs`, `${repoPath()}/raw/branch/main/nope`, `${repoPath()}/archive/nope.zip`, `${repoPath()}/archive/main.rar`,
    `${repoPath()}/wiki/Nope`, `${repoPath()}/releases/tag/nope`, `/${w.org.username}/-/projects/99999`, `/${w.org.username}/-/projects/x`,
    `/a%00b`, `/${w.owner.username}/%E0%A4%A`, `${repoPath()}/nothing-here`, `/${w.owner.username}/nope`,
  ]) {
    const res = await getPage(app, path);
    assert.is(res.status, 404, path);
  }
  const version = await getPage(app, '/api/v1/version');
  assert.is(version.status, 200);
  assert.match(version.type, /^application\/json/);
  assert.is((await getPage(app, '/swagger.v1.json')).status, 200);
  assert.is((await getPage(app, '/api/healthz')).status, 200);
  assert.is((await getPage(app, `/avatars/${w.owner.id}`)).type, 'image/png');
  assert.is((await getPage(app, '/api/v1/nope')).status, 404);
  const refs = await getPage(app, `${repoPath()}.git/info/refs?service=git-upload-pack`);
  assert.is(refs.status, 200);
  assert.is(refs.type, 'application/x-git-upload-pack-advertisement');
  assert.is((await getPage(app, `${repoPath()}/info/refs?service=git-upload-pack`)).type, 'application/x-git-upload-pack-advertisement');
  // Pages are read-only.
  const post = await fetch(`${app.url}${repoPath()}`, { method: 'POST' });
  assert.is(post.status, 404);
});

test.run();
