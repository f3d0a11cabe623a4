// Issue #32: hostile input is a 4xx before anything is written (lone surrogates, NUL, ids beyond int64,
// oversized avatars, strings too long for a git argument or a field), and no git change stands without
// its database record.
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { dirOf, disk, repoFor, roles, type Roles } from '../helpers/gitFixtures.js';
import { raw, type Repository } from '../helpers/repos.js';
import { gitWorkspace } from '../helpers/events.js';
import { eventually } from '../helpers/hooks.js';

let app: TestApp;
let r: Roles;
let repo: Repository;
let dir: string;
let p: string;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  repo = await repoFor(app, r);
  dir = dirOf(app, repo);
  p = `/repos/${repo.full_name}`;
});
test.after(async () => {
  await app.close();
});

const send = (method: string, path: string, body?: unknown, authorization = r.owner.auth) =>
  raw(app, method, path, { body: body === undefined ? undefined : JSON.stringify(body), authorization });

async function status(method: string, path: string, body: unknown, want: number, label: string, match?: RegExp) {
  const res = await send(method, path, body);
  assert.is(res.response.status, want, `${label}: ${res.text.slice(0, 300)}`);
  if (match) assert.match(res.body.message, match, label);
  return res;
}

const refs = () => disk.run(dir, ['for-each-ref', '--format=%(refname)']);
const b64 = (s: string) => Buffer.from(s).toString('base64');

test('422: a lone surrogate or NUL in a body field, a key or a query value; nothing is written', async () => {
  const before = await refs();
  await status('POST', `${p}/branches`, { new_branch_name: '\ud800x', old_branch_name: 'main' }, 422, 'branch', /\[new_branch_name\]: .*lone surrogate/);
  await status('POST', `${p}/tags`, { tag_name: 't\udc00' }, 422, 'tag', /\[tag_name\]/);
  await status('POST', `${p}/contents/s.txt`, { content: b64('x'), new_branch: 'nb\ud800' }, 422, 'contents new_branch', /\[new_branch\]/);
  await status('POST', `${p}/contents/s.txt`, { content: b64('x'), branch: '\ud800' }, 422, 'contents branch', /\[branch\]/);
  await status('POST', `${p}/contents`, { files: [{ operation: 'create', path: 's\ud800.txt', content: b64('x') }] }, 422, 'file path', /\[files\.0\.path\]/);
  await status('POST', `${p}/contents`, { files: [{ operation: 'create', path: 's.txt', content: b64('x') }], message: 'm\0' }, 422, 'NUL', /\[message\]: must not contain NUL/);
  assert.is(await refs(), before, 'no ref was written');

  await status('POST', `${p}/issues`, { title: 'a\ud800' }, 422, 'issue title', /\[title\]/);
  await status('POST', `${p}/issues`, { title: 'a', ['b\ud800']: 1 }, 422, 'a key', /lone surrogate/);
  const issue = await status('POST', `${p}/issues`, { title: 'a pair is fine 😀' }, 201, 'surrogate pair');
  await status('POST', `${p}/issues/${issue.body.number}/comments`, { body: 'x\udfffy' }, 422, 'comment', /\[body\]/);
  await status('PATCH', `${p}/issues/${issue.body.number}`, { body: '\ud83d' }, 422, 'issue edit', /\[body\]/);
  await status('GET', `${p}/issues?q=a%00b`, undefined, 422, 'query NUL', /\[q\]: must not contain NUL/);
  const list = await send('GET', `${p}/issues?state=all`);
  assert.equal(list.body.map((i: { title: string }) => i.title), ['a pair is fine 😀']);
  const comments = await send('GET', `${p}/issues/${issue.body.number}/comments`);
  assert.equal(comments.body, []);
});

test('404: git over HTTP with NUL in the owner or repository name (not a 500)', async () => {
  const [owner, name] = repo.full_name.split('/');
  for (const path of [`/a%00/${name}.git/info/refs?service=git-upload-pack`, `/${owner}/${name}%00.git/info/refs?service=git-upload-pack`]) {
    const res = await fetch(`${app.url}${path}`, { headers: { Authorization: r.owner.auth } });
    assert.is(res.status, 404, path);
  }
});

test('a pushed commit with NUL in its message and author is recorded (NUL stored as U+FFFD)', async () => {
  const ws = gitWorkspace(app);
  try {
    const [owner, name] = repo.full_name.split('/');
    const work = await ws.clone(ws.remote(r.owner, owner!, name!));
    const tree = (await ws.must(['rev-parse', 'HEAD^{tree}'], work)).trim();
    const parent = (await ws.must(['rev-parse', 'HEAD'], work)).trim();
    const object = `tree ${tree}\nparent ${parent}\nauthor A\0B <a@example.com> 1700000000 +0000\ncommitter C <c@example.com> 1700000000 +0000\n\nmsg with \0 NUL\n`;
    const id = execFileSync('git', ['hash-object', '-t', 'commit', '--literally', '-w', '--stdin'], { cwd: work, input: object }).toString().trim();
    await ws.must(['push', '-q', 'origin', `${id}:refs/heads/with-nul`], work);
  } finally {
    ws.close();
  }
  const feed = await eventually(async () => {
    const res = await send('GET', `${p}/activities/feeds`);
    return (res.body as Array<{ op_type: string; ref_name: string; content: string }>).find((a) => a.ref_name === 'refs/heads/with-nul' && a.op_type === 'commit_repo');
  }, 'the push of a commit with NUL in the feed');
  assert.match(feed.content, /msg with \ufffd NUL/);
  assert.match(feed.content, /A\ufffdB/);
});

test('a ref change whose record fails is undone: branch, tag, contents on a new and on an existing branch', async () => {
  const target = (await disk.tip(dir, 'main'))!;
  const before = await refs();
  await app.sqlFromElsewhere(`
    create function anvil_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$;
    create trigger anvil_test_refuse before update on repositories for each row when (new.id = ${repo.id}) execute function anvil_test_refuse();`);
  try {
    for (const [label, method, path, body] of [
      ['branch', 'POST', `${p}/branches`, { new_branch_name: 'undone' }],
      ['tag', 'POST', `${p}/tags`, { tag_name: 'undone-tag' }],
      ['annotated tag', 'POST', `${p}/tags`, { tag_name: 'undone-annotated', message: 'm' }],
      ['contents, new branch', 'POST', `${p}/contents/u.txt`, { content: b64('u'), new_branch: 'undone-files' }],
      ['contents, main', 'POST', `${p}/contents/u.txt`, { content: b64('u') }],
      ['diffpatch, main', 'POST', `${p}/diffpatch`, { content: 'diff --git a/d.txt b/d.txt\nnew file mode 100644\n--- /dev/null\n+++ b/d.txt\n@@ -0,0 +1 @@\n+d\n' }],
    ] as const) {
      const res = await send(method, path, body);
      assert.ok(res.response.status >= 500, `${label}: the record failed (${res.response.status})`);
      assert.is(await refs(), before, `${label}: no ref stands without its record`);
      assert.is(await disk.tip(dir, 'main'), target, `${label}: main is where it was`);
    }
  } finally {
    await app.sqlFromElsewhere('drop trigger anvil_test_refuse on repositories; drop function anvil_test_refuse();');
  }
  await status('POST', `${p}/branches`, { new_branch_name: 'undone' }, 201, 'the same branch once the record works');
  await status('POST', `${p}/tags`, { tag_name: 'undone-tag' }, 201, 'the same tag once the record works');
});

test('a wiki page or a pull request update whose record fails is undone', async () => {
  await status('POST', `${p}/wiki/new`, { title: 'Home', content_base64: b64('home') }, 201, 'first page');
  await status('POST', `${p}/branches`, { new_branch_name: 'upd-head' }, 201, 'head branch');
  await status('POST', `${p}/contents/h.txt`, { content: b64('h'), branch: 'upd-head' }, 201, 'head commit');
  const pull = await status('POST', `${p}/pulls`, { head: 'upd-head', base: 'main', title: 'to update' }, 201, 'pull');
  await status('POST', `${p}/contents/m.txt`, { content: b64('m') }, 201, 'base commit');
  const wikiDir = dir.replace(/\.git$/, '.wiki.git');
  const [wikiTip, headTip] = [await disk.tip(wikiDir, 'main'), await disk.tip(dir, 'upd-head')];
  await app.sqlFromElsewhere(`
    create function anvil_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$;
    create trigger anvil_test_refuse before insert on events for each row when (new.repo_id = ${repo.id}) execute function anvil_test_refuse();`);
  try {
    const page = await send('POST', `${p}/wiki/new`, { title: 'Undone', content_base64: b64('u') });
    assert.ok(page.response.status >= 500, `wiki: the record failed (${page.response.status})`);
    assert.is(await disk.tip(wikiDir, 'main'), wikiTip, 'the wiki branch is where it was');
    const update = await send('POST', `${p}/pulls/${pull.body.number}/update`);
    assert.ok(update.response.status >= 500, `update: the record failed (${update.response.status})`);
    assert.is(await disk.tip(dir, 'upd-head'), headTip, 'the head branch is where it was');
  } finally {
    await app.sqlFromElsewhere('drop trigger anvil_test_refuse on events; drop function anvil_test_refuse();');
  }
  await status('POST', `${p}/wiki/new`, { title: 'Undone', content_base64: b64('u') }, 201, 'the same page once the record works');
  await status('POST', `${p}/pulls/${pull.body.number}/update`, undefined, 200, 'the update once the record works');
});

test('422: ids beyond int64 (or beyond what a JS number holds exactly) in id lists; a real id still filters', async () => {
  for (const v of ['99999999999999999999', '9223372036854775807', '1,9007199254740993']) {
    await status('GET', `${p}/issues?milestones=${v}`, undefined, 422, v, /\[milestones\]: .*out of range/);
  }
  const m = await status('POST', `${p}/milestones`, { title: 'm1' }, 201, 'milestone');
  const issue = await status('POST', `${p}/issues`, { title: 'in m1', milestone: m.body.id }, 201, 'issue in milestone');
  const found = await status('GET', `${p}/issues?milestones=${m.body.id}`, undefined, 200, 'by id');
  assert.equal(found.body.map((i: { number: number }) => i.number), [issue.body.number]);
  await status('GET', `${p}/issues/9223372036854775807`, undefined, 422, 'path index', /\[index\]/);
  // Any integer parameter past Go's int64 is no value (a float would round 2^63 back into range).
  await status('GET', `/repos/search?page=9223372036854775808`, undefined, 422, 'page past int64', /\[page\]: .*64-bit/);
  await status('GET', `${p}/issues?limit=-9223372036854775809`, undefined, 422, 'limit below int64', /\[limit\]: .*64-bit/);
  await status('GET', `/repos/search?page=9223372036854775807&limit=1`, undefined, 200, 'the largest int64 page is a page (empty)');
});

test('413: a 9 MB avatar (user and organization) is refused by its size first', async () => {
  const image = 'A'.repeat(9 * 1024 * 1024);
  await status('POST', '/user/avatar', { image }, 413, 'user avatar', /larger than/);
  await status('POST', '/orgs', { username: `o${r.owner.id}hostile` }, 201, 'org');
  await status('POST', `/orgs/o${r.owner.id}hostile/avatar`, { image }, 413, 'org avatar', /larger than/);
  await status('POST', '/user/avatar', { image: `${'A'.repeat(1000)}!` }, 400, 'bad base64', /base64/);
});

test('strings that would reach a git argument or a file name are limited first (no E2BIG)', async () => {
  const huge = 'x'.repeat(300 * 1024);
  await status('POST', `${p}/wiki/new`, { title: huge, content_base64: b64('w') }, 400, 'wiki title', /too long/);
  await status('POST', `${p}/wiki/new`, { title: 'a'.repeat(253), content_base64: b64('w') }, 400, 'wiki title of 256 bytes as a file', /too long/);
  await status('POST', `${p}/wiki/new`, { title: 'a'.repeat(252), content_base64: b64('w') }, 201, 'wiki title of 255 bytes as a file');
  await status('POST', `${p}/wiki/new`, { title: 'big', content_base64: `${'A'.repeat(3 * 1024 * 1024)}!` }, 400, 'wiki content', /base64/);
  await status('POST', `${p}/actions/workflows/ci.yml/dispatches`, { ref: huge }, 404, 'dispatch ref');
  await status('POST', `${p}/branches`, { new_branch_name: 'ok-branch', old_ref_name: huge }, 422, 'old_ref_name', /old_ref_name/);
  await status('POST', `${p}/contents/a.txt`, { content: b64('a'), author: { name: huge, email: 'a@example.com' } }, 422, 'author name', /author\.name/);
  await status('POST', `${p}/contents`, { files: [{ operation: 'create', path: huge, content: b64('x') }] }, 422, 'file path', /files\.0\.path/);
});

test('422: file paths with control characters or backslashes; new branch names git and Gitea refuse', async () => {
  const before = await refs();
  for (const path of ['a%0Ab.txt', 'a%5Cb.txt', 'dir%09x/f.txt']) {
    await status('POST', `${p}/contents/${path}`, { content: b64('x') }, 422, path, /malformed path/);
  }
  await status('POST', `${p}/contents`, { files: [{ operation: 'create', path: 'x\ny', content: b64('x') }] }, 422, 'ChangeFiles', /malformed path/);
  for (const name of ['HEAD', 'refs/heads/x', 'f'.repeat(40)]) {
    await status('POST', `${p}/contents/n.txt`, { content: b64('x'), new_branch: name }, 422, name, /\[new_branch\]/);
  }
  assert.is(await refs(), before);
});

test('422: edits hold the limits creation holds (pull and milestone titles, hook branch filters, e-mail); an indexed status context', async () => {
  await status('POST', `${p}/branches`, { new_branch_name: 'feature' }, 201, 'branch');
  await status('POST', `${p}/contents/f.txt`, { content: b64('f'), branch: 'feature' }, 201, 'commit');
  const pull = await status('POST', `${p}/pulls`, { head: 'feature', base: 'main', title: 'a pull' }, 201, 'pull');
  await status('PATCH', `${p}/pulls/${pull.body.number}`, { title: 't'.repeat(256) }, 422, 'pull title', /\[title\]/);
  await status('PATCH', `${p}/pulls/${pull.body.number}`, { title: 't'.repeat(255) }, 201, 'pull title of 255');
  const m = await status('POST', `${p}/milestones`, { title: 'm2' }, 201, 'milestone');
  await status('PATCH', `${p}/milestones/${m.body.id}`, { title: 't'.repeat(256) }, 422, 'milestone title', /\[title\]/);
  const hook = { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, events: ['push'], active: false };
  await status('POST', `${p}/hooks`, { ...hook, branch_filter: 'b'.repeat(2049) }, 422, 'hook create', /\[branch_filter\]/);
  const h = await status('POST', `${p}/hooks`, { ...hook, branch_filter: 'main' }, 201, 'hook');
  await status('PATCH', `${p}/hooks/${h.body.id}`, { branch_filter: 'b'.repeat(2049) }, 422, 'hook edit', /\[branch_filter\]/);
  await status('POST', `${p}/statuses/main`, { state: 'success', context: 'c'.repeat(513) }, 422, 'status context', /\[context\]/);
  await status('POST', `${p}/statuses/main`, { state: 'success', context: 'c'.repeat(512) }, 201, 'status context of 512');
  const res = await send('PATCH', `/admin/users/${r.writer.username}`, { email: `${'e'.repeat(250)}@example.com` }, r.admin.auth);
  assert.is(res.response.status, 422, res.text);
  assert.match(res.body.message, /\[email\]/);
});

test.run();
