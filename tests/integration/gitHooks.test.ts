// Custom git hooks (#38) run where git runs them, on real pushes over smart HTTP: with git hooks enabled
// (DISABLE_GIT_HOOKS=false) a repository's pre-receive refuses the whole push and its output reaches the client
// as "remote:" lines, its update refuses one ref, its post-receive runs once the refs moved; deleting the hook
// lets the push through. With the default (disabled) a hook file in the repository is never run, and template
// generation copies hooks only when enabled.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { disk, dirOf } from '../helpers/gitFixtures.js';
import { gitWorkspace } from '../helpers/events.js';
import { gitHookCall, hookFilesIn, startHooksApp } from '../helpers/gitHooks.js';
import { generate } from '../helpers/repoTemplates.js';
import { pathOf } from '../helpers/repos.js';
import { tagWorld, type TagWorld } from '../helpers/tags.js';

let app: TestApp;
let hooksApp: TestApp;
let ws: ReturnType<typeof gitWorkspace>;
let wsOff: ReturnType<typeof gitWorkspace>;

test.before(async () => {
  [app, hooksApp] = await Promise.all([startApp(), startHooksApp()]);
  ws = gitWorkspace(hooksApp);
  wsOff = gitWorkspace(app);
});
test.after(async () => {
  ws?.close();
  wsOff?.close();
  await Promise.all([app?.close(), hooksApp?.close()]);
});

async function setHook(w: TagWorld, name: string, content: string): Promise<void> {
  const res = await gitHookCall(hooksApp, 'PATCH', `/${name}`, w.path, w.r.admin.auth, { content });
  assert.is(res.status, 200, res.body);
}

const refusing = `#!/bin/sh
while read old new ref; do
  echo "custom pre-receive refuses $ref for $GITEA_PUSHER_NAME on $GITEA_REPO_USER_NAME/$GITEA_REPO_NAME"
done
[ -z "$ANVIL_PUSH_JOURNAL" ] || echo "anvil's journal is visible"
exit 1
`;

test('pre-receive exiting non-zero refuses the push with its output as remote: lines; deleted, the push passes', async () => {
  const w = await tagWorld(hooksApp);
  await setHook(w, 'pre-receive', refusing);
  const clone = await ws.clone(ws.remote(w.r.writer, w.path.owner, w.path.repo));
  const tip = await ws.commit(clone, 'a.txt', 'a\n', 'by the writer');
  const refused = await ws.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is.not(refused.code, 0, 'refused');
  assert.match(refused.stderr, `remote: custom pre-receive refuses refs/heads/main for ${w.r.writer.username} on ${w.path.owner}/${w.path.repo}`);
  assert.match(refused.stderr, 'pre-receive hook declined');
  assert.not.match(refused.stderr, 'journal is visible', "the custom hook runs without anvil's variables");
  assert.is(await disk.tip(w.dir, 'main'), w.tip, 'main did not move');

  const del = await gitHookCall(hooksApp, 'DELETE', '/pre-receive', w.path, w.r.admin.auth);
  assert.is(del.status, 204);
  const passed = await ws.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is(passed.code, 0, passed.stderr);
  assert.is(await disk.tip(w.dir, 'main'), tip);
  // The push is recorded as any other (the branch answer is the new tip).
  const branch = await hooksApp.client(w.r.writer.auth).GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...w.path, branch: 'main' } } });
  assert.is(branch.data?.commit.id, tip);
});

test('a pre-receive exiting 0 lets the push through and its output is shown', async () => {
  const w = await tagWorld(hooksApp);
  await setHook(w, 'pre-receive', '#!/bin/sh\ncat >/dev/null\necho "checked by the custom hook"\n');
  const clone = await ws.clone(ws.remote(w.r.owner, w.path.owner, w.path.repo));
  const tip = await ws.commit(clone, 'b.txt', 'b\n', 'by the owner');
  const res = await ws.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is(res.code, 0, res.stderr);
  assert.match(res.stderr, 'remote: checked by the custom hook');
  assert.is(await disk.tip(w.dir, 'main'), tip);
});

test('anvil\'s own checks still come first: a protected branch is refused before the custom hook runs', async () => {
  const w = await tagWorld(hooksApp);
  await setHook(w, 'pre-receive', '#!/bin/sh\necho "custom hook ran"\nexit 0\n');
  const prot = await hooksApp.client(w.r.owner.auth).POST('/repos/{owner}/{repo}/branch_protections', { params: { path: w.path }, body: { rule_name: 'main' } });
  assert.is(prot.response.status, 201);
  const clone = await ws.clone(ws.remote(w.r.writer, w.path.owner, w.path.repo));
  await ws.commit(clone, 'p.txt', 'p\n', 'to a protected branch');
  const res = await ws.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is.not(res.code, 0);
  assert.match(res.stderr, 'you may not push to the protected branch main');
  assert.not.match(res.stderr, 'custom hook ran');
});

test('update refuses one ref of a push (its arguments: ref, old, new), the others move', async () => {
  const w = await tagWorld(hooksApp);
  await setHook(w, 'update', '#!/bin/sh\nif [ "$1" = refs/heads/blocked ]; then echo "update refuses $1 ($2 -> $3)" >&2; exit 1; fi\nexit 0\n');
  const clone = await ws.clone(ws.remote(w.r.writer, w.path.owner, w.path.repo));
  const tip = await ws.commit(clone, 'u.txt', 'u\n', 'two branches');
  const res = await ws.run(['push', 'origin', 'HEAD:refs/heads/blocked', 'HEAD:refs/heads/open'], clone);
  assert.is.not(res.code, 0, 'one ref was refused');
  assert.match(res.stderr, `remote: update refuses refs/heads/blocked (${'0'.repeat(40)} -> ${tip})`);
  assert.is(await disk.tip(w.dir, 'blocked'), undefined);
  assert.is(await disk.tip(w.dir, 'open'), tip);
  const client = hooksApp.client(w.r.writer.auth);
  const [open, blocked] = await Promise.all(['open', 'blocked'].map((branch) =>
    client.GET('/repos/{owner}/{repo}/branches/{branch}', { params: { path: { ...w.path, branch } } })));
  assert.equal([open!.response.status, blocked!.response.status], [200, 404], 'only the branch git made is recorded');
});

test('post-receive runs once the refs moved, its output shown; its exit status changes nothing', async () => {
  const w = await tagWorld(hooksApp);
  await setHook(w, 'post-receive', '#!/bin/sh\nwhile read old new ref; do echo "post-receive saw $ref at $(git rev-parse "$ref")"; done\nexit 3\n');
  const clone = await ws.clone(ws.remote(w.r.writer, w.path.owner, w.path.repo));
  const tip = await ws.commit(clone, 'c.txt', 'c\n', 'after');
  const res = await ws.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is(res.code, 0, res.stderr);
  assert.match(res.stderr, `remote: post-receive saw refs/heads/main at ${tip}`);
  assert.is(await disk.tip(w.dir, 'main'), tip);
});

test('disabled (the default): a hook file in the repository is never run', async () => {
  const w = await tagWorld(app);
  // As if written while the site enabled hooks, or by hand.
  for (const name of ['pre-receive', 'update']) {
    mkdirSync(join(w.dir, 'hooks', `${name}.d`), { recursive: true });
    writeFileSync(join(w.dir, 'hooks', `${name}.d`, name), '#!/bin/sh\necho "must not run"\nexit 1\n', { mode: 0o755 });
  }
  const clone = await wsOff.clone(wsOff.remote(w.r.writer, w.path.owner, w.path.repo));
  const tip = await wsOff.commit(clone, 'd.txt', 'd\n', 'hooks disabled');
  const res = await wsOff.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is(res.code, 0, res.stderr);
  assert.not.match(res.stderr, 'must not run');
  assert.is(await disk.tip(w.dir, 'main'), tip);
});

test('template generation with git_hooks copies the template\'s hooks when enabled, none when disabled', async () => {
  const w = await tagWorld(hooksApp);
  const made = await hooksApp.client(w.r.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: w.path }, body: { template: true } });
  assert.is(made.response.status, 200);
  await setHook(w, 'pre-receive', refusing);
  await setHook(w, 'post-receive', '#!/bin/sh\necho done\n');
  const res = await generate(hooksApp, made.data!, w.r.owner.auth, { owner: w.r.owner.username, name: 'from-hooked', git_hooks: true, git_content: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  const g = pathOf(res.data!);
  assert.equal(hookFilesIn(dirOf(hooksApp, res.data!)), ['pre-receive', 'post-receive']);
  const copied = await gitHookCall(hooksApp, 'GET', '/pre-receive', g, w.r.admin.auth);
  assert.equal(JSON.parse(copied.body), { name: 'pre-receive', is_active: true, content: refusing });
  // And the copy runs: the generated repository refuses pushes as its template does.
  const clone = await ws.clone(ws.remote(w.r.owner, g.owner, g.repo));
  await ws.commit(clone, 'g.txt', 'g\n', 'to the generated one');
  const push = await ws.run(['push', 'origin', 'HEAD:main'], clone);
  assert.is.not(push.code, 0);
  assert.match(push.stderr, 'custom pre-receive refuses refs/heads/main');
  const without = await generate(hooksApp, made.data!, w.r.owner.auth, { owner: w.r.owner.username, name: 'not-hooked', git_content: true });
  assert.equal(hookFilesIn(dirOf(hooksApp, without.data!)), [], 'git_hooks not chosen');

  const off = await tagWorld(app);
  const tpl = await app.client(off.r.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: off.path }, body: { template: true } });
  mkdirSync(join(off.dir, 'hooks', 'pre-receive.d'), { recursive: true });
  writeFileSync(join(off.dir, 'hooks', 'pre-receive.d', 'pre-receive'), refusing, { mode: 0o755 });
  const gen = await generate(app, tpl.data!, off.r.owner.auth, { owner: off.r.owner.username, name: 'from-hooked', git_hooks: true });
  assert.is(gen.response.status, 201, JSON.stringify(gen.error));
  assert.equal(hookFilesIn(dirOf(app, gen.data!)), [], 'disabled: nothing copied');
});

test.run();
