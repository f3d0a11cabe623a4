import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { feed, opTypes } from '../../helpers/events.js';
import { disk, dirOf, repoFor, roles, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { fullTemplate, generate, getRepoAvatar, gitlinkId } from '../../helpers/repoTemplates.js';
import { messageOf, orgWorld, pathOf, userRepo, type OrgWorld, type Repository } from '../../helpers/repos.js';
import { samplePng } from '../../helpers/avatars.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let w: OrgWorld;
let template: Repository;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  w = await orgWorld(app);
  template = await fullTemplate(app, r);
});
test.after(async () => {
  await app.close();
});

const get = (auth: string, path: { owner: string; repo: string }) => app.client(auth).GET('/repos/{owner}/{repo}', { params: { path } });
const avatarFiles = () => {
  try {
    return readdirSync(join(app.config.dataDir, 'repo-avatars')).length;
  } catch {
    return 0;
  }
};

test('201: git content as one new commit, with .gitea/template expansion in the listed paths and contents', async () => {
  const name = 'my_new-Repo';
  const res = await generate(app, template, r.writer.auth, { owner: r.writer.username, name, description: 'generated one', git_content: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('generateRepo', res);
  const g = res.data!;
  assert.equal([g.full_name, g.description, g.empty, g.template, g.default_branch, g.private], [`${r.writer.username}/${name}`, 'generated one', false, false, template.default_branch, false]);
  assert.equal(g.permissions, { admin: true, push: true, pull: true });

  const dir = dirOf(app, g);
  const tip = (await disk.tip(dir, g.default_branch))!;
  assert.is((await disk.run(dir, ['rev-list', '--count', tip])).trim(), '1', 'one commit, none of the template history');
  assert.is((await disk.run(dir, ['log', '-1', '--format=%an|%s', tip])).trim(), `${r.writer.username}|Initial commit`);
  assert.equal(await disk.files(dir, tip), ['README.md', 'keep.txt', 'link', 'src/my_new_repo/main.go', 'sub']);
  const readme = (await disk.file(dir, tip, 'README.md')).toString('utf8');
  assert.is(readme, `# ${name} by ${r.writer.username}\nfrom ${r.owner.username}/${template.name}\n`
    + 'snake my_new_repo kebab my-new-repo camel myNewRepo pascal MyNewRepo\n'
    + 'lower my_new-repo upper MY_NEW-REPO title My_new-Repo\ncost 5 and UNKNOWN, $ alone\n');
  assert.is((await disk.file(dir, tip, 'src/my_new_repo/main.go')).toString('utf8'), 'package my_new_repo\n');
  assert.is((await disk.file(dir, tip, 'keep.txt')).toString('utf8'), '$REPO_NAME stays\n', 'a file no pattern lists is copied as it is');
  const tree = await disk.run(dir, ['ls-tree', tip]);
  assert.match(tree, /^120000 blob \w+\tlink$/m);
  assert.match(tree, new RegExp(`^160000 commit ${gitlinkId}\\tsub$`, 'm'));
  // Only git content was asked for.
  assert.equal([g.topics, g.avatar_url], [[], '']);

  const activity = await feed(app, pathOf(g), r.writer.auth);
  assert.ok(opTypes(activity.data).includes('create_repo'), 'recorded as a repository creation');
});

test('201: every copy option on copies topics, labels, webhooks, branch protections and the avatar; default_branch chosen', async () => {
  const res = await generate(app, template, r.owner.auth, {
    owner: r.owner.username, name: 'all-copied', default_branch: 'trunk', private: true,
    git_content: true, topics: true, labels: true, webhooks: true, protected_branch: true, avatar: true, git_hooks: true,
  });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  const g = res.data!;
  const path = pathOf(g);
  const client = app.client(r.owner.auth);
  assert.equal([g.default_branch, g.private, g.topics], ['trunk', true, ['templated']]);
  assert.ok(await disk.tip(dirOf(app, g), 'trunk'));
  assert.is(await disk.tip(dirOf(app, g), template.default_branch), undefined);
  const [labels, hooks, protections] = await Promise.all([
    client.GET('/repos/{owner}/{repo}/labels', { params: { path } }),
    client.GET('/repos/{owner}/{repo}/hooks', { params: { path } }),
    client.GET('/repos/{owner}/{repo}/branch_protections', { params: { path } }),
  ]);
  assert.equal(labels.data!.map((l) => [l.name, l.color, l.description, l.exclusive]), [['kind/bug', 'ee0701', 'a bug', true]]);
  assert.equal(hooks.data!.map((h) => [h.config.url, h.events, h.active]), [['http://127.0.0.1:9/template-hook', ['push'], true]]);
  assert.equal(protections.data!.map((p) => [p.rule_name, p.required_approvals]), [['main', 2]]);
  // The avatar is a copy of its own: another key, the same picture.
  assert.ok(g.avatar_url && g.avatar_url !== template.avatar_url);
  const pic = await getRepoAvatar(g.avatar_url);
  assert.equal([pic.status, pic.type, pic.bytes.equals(samplePng)], [200, 'image/png', true]);
});

test('201: each option off copies nothing of it; git_hooks alone is a choice (and copies nothing: hooks are disabled)', async () => {
  const res = await generate(app, template, r.owner.auth, { owner: r.owner.username, name: 'hooks-only', git_hooks: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  const g = res.data!;
  const path = pathOf(g);
  const client = app.client(r.owner.auth);
  assert.equal([g.empty, g.topics, g.avatar_url, g.default_branch], [true, [], '', template.default_branch]);
  const [labels, hooks, protections] = await Promise.all([
    client.GET('/repos/{owner}/{repo}/labels', { params: { path } }),
    client.GET('/repos/{owner}/{repo}/hooks', { params: { path } }),
    client.GET('/repos/{owner}/{repo}/branch_protections', { params: { path } }),
  ]);
  assert.equal([labels.data, hooks.data, protections.data], [[], [], []]);
  const each = await Promise.all((['topics', 'labels', 'webhooks', 'protected_branch', 'avatar'] as const).map((k) =>
    generate(app, template, r.owner.auth, { owner: r.owner.username, name: `only-${k.replace('_', '-')}`, [k]: true })));
  for (const e of each) assert.is(e.response.status, 201, JSON.stringify(e.error));
  const [topics, lab, hk, prot, av] = each.map((e) => e.data!);
  assert.equal([topics!.topics, lab!.topics, topics!.empty, lab!.avatar_url], [['templated'], [], true, '']);
  const count = async (repo: Repository, what: '/repos/{owner}/{repo}/labels' | '/repos/{owner}/{repo}/hooks' | '/repos/{owner}/{repo}/branch_protections') =>
    ((await client.GET(what, { params: { path: pathOf(repo) } })).data as unknown[]).length;
  assert.equal([await count(lab!, '/repos/{owner}/{repo}/labels'), await count(hk!, '/repos/{owner}/{repo}/labels')], [1, 0]);
  assert.equal([await count(hk!, '/repos/{owner}/{repo}/hooks'), await count(prot!, '/repos/{owner}/{repo}/hooks')], [1, 0]);
  assert.equal([await count(prot!, '/repos/{owner}/{repo}/branch_protections'), await count(av!, '/repos/{owner}/{repo}/branch_protections')], [1, 0]);
  assert.ok(av!.avatar_url);
});

test('201: an empty template gives an empty repository; template set by PATCH is honoured', async () => {
  const plain = await userRepo(app, { ...r.owner });
  const refused = await generate(app, plain, r.owner.auth, { owner: r.owner.username, name: 'from-plain', git_content: true });
  assert.is(refused.response.status, 422, 'a repository that is no template');
  assert.is(messageOf(refused.error), 'this is not a template repo');
  assertSpec('generateRepo', refused);
  const patched = await app.client(r.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(plain) }, body: { template: true } });
  assert.is(patched.data?.template, true);
  const res = await generate(app, plain, r.owner.auth, { owner: r.owner.username, name: 'from-empty', git_content: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assert.equal([res.data!.empty, res.data!.default_branch], [true, plain.default_branch]);
});

test('owners: an organization the caller may create in (201), one they may not (403), another user (403; site admins 201), unknown (404)', async () => {
  const inOrg = await generate(app, template, w.creator.auth, { owner: w.name, name: 'org-gen', git_content: true });
  assert.is(inOrg.response.status, 201, JSON.stringify(inOrg.error));
  assert.is(inOrg.data!.owner.login, w.name);
  const notAllowed = await generate(app, template, w.reader.auth, { owner: w.name, name: 'org-gen-2', labels: true });
  assert.is(notAllowed.response.status, 403);
  assert.is(messageOf(notAllowed.error), 'Given user is not allowed to create repository in organization.');
  assertSpec('generateRepo', notAllowed);
  const otherUser = await generate(app, template, r.writer.auth, { owner: r.reader.username, name: 'for-reader', labels: true });
  assert.is(otherUser.response.status, 403);
  assert.is(messageOf(otherUser.error), 'Only admin can generate repository for other user.');
  const byAdmin = await generate(app, template, r.admin.auth, { owner: r.reader.username, name: 'for-reader', labels: true });
  assert.is(byAdmin.response.status, 201, JSON.stringify(byAdmin.error));
  assert.is(byAdmin.data!.owner.login, r.reader.username);
  const unknown = await generate(app, template, r.writer.auth, { owner: 'no-such-owner-x', name: 'x', labels: true });
  assert.is(unknown.response.status, 404);
});

test('callers: readers of the template may generate; invisible template 404; anonymous 401', async () => {
  const byReader = await generate(app, template, r.reader.auth, { owner: r.reader.username, name: 'reader-gen', git_content: true });
  assert.is(byReader.response.status, 201, JSON.stringify(byReader.error));
  const priv = await repoFor(app, r, { template: true, private: true });
  const hidden = await generate(app, priv, r.outsider.auth, { owner: r.outsider.username, name: 'sneaky', git_content: true });
  assert.is(hidden.response.status, 404);
  assert.is(await disk.tip(join(app.config.dataDir, 'repositories', r.outsider.username.toLowerCase(), 'sneaky.git'), 'main'), undefined);
  const anon = await generate(app, template, null, { owner: r.outsider.username, name: 'anon', git_content: true });
  assert.is(anon.response.status, 401);
});

test('422: nothing chosen, a bad name; 409: the name exists, and nothing is left behind (no avatar copy)', async () => {
  const nothing = await generate(app, template, r.owner.auth, { owner: r.owner.username, name: 'nothing', private: true });
  assert.is(nothing.response.status, 422);
  assert.is(messageOf(nothing.error), 'must select at least one template item');
  const badName = await generate(app, template, r.owner.auth, { owner: r.owner.username, name: 'bad name', git_content: true });
  assert.is(badName.response.status, 422);
  const reserved = await generate(app, template, r.owner.auth, { owner: r.owner.username, name: 'api.rss', git_content: true });
  assert.is(reserved.response.status, 422);
  const before = avatarFiles();
  const taken = await generate(app, template, r.owner.auth, { owner: r.owner.username, name: template.name, git_content: true, avatar: true });
  assert.is(taken.response.status, 409);
  assertSpec('generateRepo', taken);
  assert.is(avatarFiles(), before, 'the avatar copy made for it is gone');
  const again = await get(r.owner.auth, pathOf(template));
  assert.is(again.data!.id, template.id);
});

test.run();
