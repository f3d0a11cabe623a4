import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import {
  actor, addCollaborator, assertFsck, existsSync, fresh, getRepo, git, messageOf, orgRepo, orgWorld, pathOf, raw, readIn, repoFolder,
  siteAdmin, swaggerOf, userRepo, withClone, type Actor, type OrgWorld, type Repository,
} from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';
import { assertRedirects } from '../../helpers/redirects.js';

type EditRepoOption = components['schemas']['EditRepoOption'];

let app: TestApp;
let admin: Actor;
let alice: Actor;
let outsider: Actor;
let collab: Record<'read' | 'write' | 'admin', Actor>;
let w: OrgWorld;

test.before(async () => {
  app = await startApp();
  admin = await siteAdmin(app);
  const [a, o, cr, cw, ca] = await Promise.all([actor(app), actor(app), actor(app), actor(app), actor(app)]);
  [alice, outsider] = [a, o];
  collab = { read: cr, write: cw, admin: ca };
  w = await orgWorld(app);
});
test.after(async () => {
  await app.close();
});

const edit = (repo: Repository | { owner: string; repo: string }, body: EditRepoOption, authorization?: string) =>
  app.client(authorization).PATCH('/repos/{owner}/{repo}', { params: { path: 'full_name' in repo ? pathOf(repo) : repo }, body });

async function edited(repo: Repository, body: EditRepoOption, as: Actor = alice): Promise<Repository> {
  const r = await edit(repo, body, as.auth);
  assert.is(r.response.status, 200, `${JSON.stringify(body)} → ${r.response.status} ${JSON.stringify(r.error)}`);
  assertSpec('repoEdit', r);
  return r.data!;
}

/** A repository of alice's with read, write and admin collaborators. */
async function withCollaborators(body: Parameters<typeof userRepo>[2] = {}) {
  const repo = await userRepo(app, alice, body);
  for (const mode of ['read', 'write', 'admin'] as const) await addCollaborator(app, repo, collab[mode], mode);
  return repo;
}

test('200: repository admins edit — owner, admin collaborator, site admin; the answer is what GET answers', async () => {
  const repo = await withCollaborators();
  for (const [label, as] of [['owner', alice], ['admin collaborator', collab.admin], ['site admin', admin]] as const) {
    const description = `by ${label}`;
    const out = await edited(repo, { description, website: 'https://example.com/x' }, as);
    assert.is(out.description, description);
    assert.is(out.website, 'https://example.com/x');
    assert.equal(out.permissions, { admin: true, push: true, pull: true }, label);
    assert.ok(Date.parse(out.updated_at) >= Date.parse(repo.updated_at));
    const read = await getRepo(app, alice.username, repo.name, as.auth);
    assert.equal(read.data, out, `${label}: read-after-write`);
  }
});

test('200: org owner and admin-team members edit organization repositories', async () => {
  const repo = await orgRepo(app, w.name, w.owner, { private: true });
  assert.is((await edited(repo, { description: 'owner' }, w.owner)).description, 'owner');
  assert.is((await edited(repo, { description: 'team admin' }, w.teamAdmin)).description, 'team admin');
  const byCreator = await orgRepo(app, w.name, w.creator);
  assert.is((await edited(byCreator, { description: 'creator' }, w.creator)).description, 'creator', 'the creator is admin collaborator');
});

test('403: read and write collaborators, read-team members and outsiders who can see the repository', async () => {
  const repo = await withCollaborators();
  const orgPublic = await orgRepo(app, w.name, w.owner);
  const cases: Array<[string, Repository, Actor]> = [
    ['read collaborator', repo, collab.read],
    ['write collaborator', repo, collab.write],
    ['outsider on a public repository', repo, outsider],
    ['read team member', orgPublic, w.reader],
    ['member in no team', orgPublic, w.member],
    ['creator team member on a repository not theirs', orgPublic, w.creator],
  ];
  for (const [label, target, as] of cases) {
    const r = await edit(target, { description: 'nope' }, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('repoEdit', r);
    assert.equal(r.error, { message: 'user should be an owner or a collaborator with admin write of a repository', url: swaggerOf(app) }, label);
  }
  assert.is((await getRepo(app, alice.username, repo.name, alice.auth)).data!.description, '', 'unchanged');
});

test('404: a private repository the caller cannot see, an unknown repository or owner', async () => {
  const priv = await userRepo(app, alice, { private: true });
  const r = await edit(priv, { description: 'x' }, outsider.auth);
  assert.is(r.response.status, 404);
  assertSpec('repoEdit', r);
  assert.is(await r.response.text(), '');
  assert.is((await edit({ owner: alice.username, repo: 'missing' }, { description: 'x' }, admin.auth)).response.status, 404);
  assert.is((await edit({ owner: 'missing-owner', repo: priv.name }, { description: 'x' }, admin.auth)).response.status, 404);
});

test('401: anonymous callers; 403: a token without write:repository', async () => {
  const repo = await userRepo(app, alice);
  const anon = await edit(repo, { description: 'x' });
  assert.is(anon.response.status, 401);
  assertSpec('repoEdit', anon);
  assert.equal(anon.error, { message: 'token is required', url: swaggerOf(app) });
  for (const scopes of [['read:repository'], ['write:organization']]) {
    const r = await edit(repo, { description: 'x' }, await app.token(alice, scopes));
    assert.is(r.response.status, 403, scopes.join());
    assert.is(messageOf(r.error), 'token does not have at least one of required scope(s): [write:repository]');
  }
  assert.is((await edit(repo, { description: 'ok' }, await app.token(alice, ['write:repository']))).response.status, 200);
});

test('settings: units, merge flags, tracker and wiki settings change; omitted and null fields are kept', async () => {
  const repo = await userRepo(app, alice);
  const out = await edited(repo, {
    has_wiki: false, has_projects: false, has_releases: false, has_packages: false, has_actions: false, template: true,
    allow_merge_commits: false, allow_rebase: false, allow_squash_merge: true, allow_rebase_explicit: false,
    allow_fast_forward_only_merge: false, allow_manual_merge: true, autodetect_manual_merge: true, allow_rebase_update: false,
    default_delete_branch_after_merge: true, default_merge_style: 'squash', default_allow_maintainer_edit: true,
    ignore_whitespace_conflicts: true, projects_mode: 'repo',
  });
  assert.equal(
    [out.has_wiki, out.has_projects, out.has_releases, out.has_packages, out.has_actions, out.template, out.has_issues, out.has_pull_requests],
    [false, false, false, false, false, true, true, true],
  );
  assert.equal(
    [out.allow_merge_commits, out.allow_rebase, out.allow_squash_merge, out.allow_rebase_explicit, out.allow_fast_forward_only_merge,
      out.allow_manual_merge, out.autodetect_manual_merge, out.allow_rebase_update, out.default_delete_branch_after_merge,
      out.default_merge_style, out.default_allow_maintainer_edit, out.ignore_whitespace_conflicts, out.projects_mode],
    [false, false, true, false, false, true, true, false, true, 'squash', true, true, 'repo'],
  );
  const again = await edited(repo, { description: null, has_wiki: null, default_merge_style: null, name: null });
  assert.equal({ ...again, updated_at: '' }, { ...out, updated_at: '' }, 'null changes nothing');
  const empty = await edited(repo, {});
  assert.equal({ ...empty, updated_at: '' }, { ...out, updated_at: '' }, 'an empty body changes nothing');
});

test('settings: the pull-request settings apply only while pull requests are enabled', async () => {
  const repo = await userRepo(app, alice);
  const off = await edited(repo, { has_pull_requests: false, allow_rebase: false, default_merge_style: 'squash' });
  assert.is(off.has_pull_requests, false);
  assert.is(off.allow_rebase, true, 'ignored: pull requests are off');
  assert.is(off.default_merge_style, 'merge');
  const stillOff = await edited(repo, { allow_squash_merge: false });
  assert.is(stillOff.allow_squash_merge, true, 'ignored while pull requests stay off');
  const on = await edited(repo, { has_pull_requests: true, allow_rebase: false });
  assert.is(on.has_pull_requests, true);
  assert.is(on.allow_rebase, false, 'applied with pull requests on');
});

test('settings: internal tracker fields left out mean false; external tracker and wiki replace the built-in units', async () => {
  const repo = await userRepo(app, alice);
  assert.equal(repo.internal_tracker, { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true });
  const it = await edited(repo, { internal_tracker: { enable_issue_dependencies: true } });
  assert.equal(it.internal_tracker, { enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: true });

  const ext = await edited(repo, {
    external_tracker: { external_tracker_url: 'https://tracker.example.com', external_tracker_format: 'https://tracker.example.com/{user}/{repo}/{index}', external_tracker_style: '' },
    external_wiki: { external_wiki_url: 'https://wiki.example.com' },
  });
  assert.equal(ext.external_tracker, {
    external_tracker_url: 'https://tracker.example.com', external_tracker_format: 'https://tracker.example.com/{user}/{repo}/{index}',
    external_tracker_style: 'numeric', external_tracker_regexp_pattern: '',
  });
  assert.equal(ext.external_wiki, { external_wiki_url: 'https://wiki.example.com' });
  assert.equal((await getRepo(app, alice.username, repo.name, alice.auth)).data, ext);
  const kept = await edited(repo, { external_tracker: null, external_wiki: null });
  assert.equal(kept.external_tracker, ext.external_tracker, 'null keeps it');
  assert.equal(kept.external_wiki, ext.external_wiki, 'null keeps it');
  const builtIn = await edited(repo, { has_issues: true, has_wiki: true });
  assert.is(builtIn.external_tracker, null, 'has_issues without external_tracker: the built-in tracker again');
  assert.is(builtIn.external_wiki, null, 'has_wiki without external_wiki: the built-in wiki again');
  assert.is(builtIn.has_issues, true);

  for (const body of [
    { external_tracker: { external_tracker_url: 'ftp://tracker.example.com' } },
    { external_wiki: { external_wiki_url: 'javascript://wiki.example.com' } },
  ]) {
    const r = await edit(repo, body, alice.auth);
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpec('repoEdit', r);
  }
});

test('private: hides the repository from anonymous callers and outsiders, and back', async () => {
  const repo = await userRepo(app, alice);
  assert.is((await edited(repo, { private: true })).private, true);
  assert.is((await getRepo(app, alice.username, repo.name)).response.status, 404);
  assert.is((await getRepo(app, alice.username, repo.name, outsider.auth)).response.status, 404);
  assert.is((await edited(repo, { private: false })).private, false);
  assert.is((await getRepo(app, alice.username, repo.name)).response.status, 200);
});

test('rename: the folder moves, the old name is gone, the new one clones; the wiki moves along', async () => {
  const repo = await userRepo(app, alice, { auto_init: true, description: 'moving' });
  const oldDir = repoFolder(app, alice.username, repo.name);
  const wikiOld = oldDir.replace(/\.git$/, '.wiki.git');
  execFileSync('git', ['init', '--bare', '--quiet', wikiOld]);
  const head = git(oldDir, ['rev-parse', 'HEAD']).trim();
  const newName = fresh('Moved');
  const out = await edited(repo, { name: newName });
  assert.is(out.name, newName);
  assert.is(out.full_name, `${alice.username}/${newName}`);
  assert.is(out.clone_url, `${app.config.rootUrl}${alice.username}/${newName}.git`);
  assert.is(out.id, repo.id);
  const newDir = repoFolder(app, alice.username, newName);
  assert.not.ok(existsSync(oldDir), 'the old folder is gone');
  assert.ok(existsSync(newDir), 'the new folder is there');
  assert.not.ok(existsSync(wikiOld), 'the old wiki folder is gone');
  assert.ok(existsSync(newDir.replace(/\.git$/, '.wiki.git')), 'the wiki moved');
  assert.is(git(newDir, ['rev-parse', 'HEAD']).trim(), head);
  assertFsck(newDir);
  withClone(newDir, (work) => assert.is(readIn(work, 'README.md'), `# ${repo.name}\n\nmoving\n`));
  // The old name leads to the new one (Gitea's redirect).
  await assertRedirects(app, 'GET', `/api/v1/repos/${alice.username}/${repo.name}`, `/api/v1/repos/${alice.username}/${newName}`, alice.auth);
  assert.is((await getRepo(app, alice.username, newName, alice.auth)).data!.id, repo.id, 'GET new name');
});

test('rename: a change of case only is allowed and keeps the folder', async () => {
  const repo = await userRepo(app, alice, { name: fresh('case') });
  const dir = repoFolder(app, alice.username, repo.name);
  const out = await edited(repo, { name: repo.name.toUpperCase() });
  assert.is(out.name, repo.name.toUpperCase());
  assert.ok(existsSync(dir));
  assertFsck(dir);
});

test('rename: 409 for a name the owner already uses (any case); both repositories stay as they were', async () => {
  const a = await userRepo(app, alice, { auto_init: true });
  const b = await userRepo(app, alice, { name: fresh('Taken') });
  for (const name of [b.name, b.name.toLowerCase()]) {
    const r = await edit(a, { name, description: 'not applied' }, alice.auth);
    assert.is(r.response.status, 409, name);
    assertSpec('repoEdit', r);
    assert.equal(r.error, { message: 'The repository with the same name already exists.', url: swaggerOf(app) });
  }
  assert.ok(existsSync(repoFolder(app, alice.username, a.name)));
  assert.ok(existsSync(repoFolder(app, alice.username, b.name)));
  assertFsck(repoFolder(app, alice.username, a.name));
  assert.is((await getRepo(app, alice.username, a.name, alice.auth)).data!.description, '', 'nothing of the body was applied');
  // Another owner's repository of that name is no conflict.
  const other = await userRepo(app, outsider);
  assert.is((await edited(a, { name: other.name })).name, other.name);
});

test('rename: 422 for reserved names and patterns, names with "..", bad characters', async () => {
  const repo = await userRepo(app, alice);
  for (const [name, pattern] of [['.', /reserved/], ['-', /reserved/], ['x.git', /pattern/], ['x.wiki', /pattern/], ['x.rss', /pattern/],
    ['x.atom', /pattern/], ['a..b', /invalid/], ['a b', /\[name\]/], ['a/b', /\[name\]/], ['', /\[name\]/]] as const) {
    const r = await edit(repo, { name }, alice.auth);
    assert.is(r.response.status, 422, name);
    assertSpec('repoEdit', r);
    assert.match(messageOf(r.error), pattern, name);
  }
  assert.ok(existsSync(repoFolder(app, alice.username, repo.name)));
});

test('archived: later edits are 423, an empty change is not; un-archiving always works and applies the rest', async () => {
  const repo = await withCollaborators({ auto_init: true });
  const archived = await edited(repo, { archived: true });
  assert.is(archived.archived, true);
  assert.ok(archived.archived_at && Date.parse(archived.archived_at) > 0);

  for (const body of [{ description: 'x' }, { name: fresh() }, { archived: true, private: true }, { has_issues: false }] as EditRepoOption[]) {
    const r = await edit(repo, body, alice.auth);
    assert.is(r.response.status, 423, JSON.stringify(body));
    assertSpec('repoEdit', r);
    assert.equal(r.error, { message: 'repo is archived', url: swaggerOf(app) });
  }
  assert.is((await edited(repo, {})).archived, true, 'an empty body changes nothing: no 423');
  assert.is((await edited(repo, { archived: true })).archived, true, 'archiving again changes nothing else: no 423');
  const forbidden = await edit(repo, { archived: false }, collab.write.auth);
  assert.is(forbidden.response.status, 403, 'still only admins');

  const back = await edited(repo, { archived: false, description: 'back' });
  assert.is(back.archived, false);
  assert.is(back.archived_at, null);
  assert.is(back.description, 'back', 'the rest of the body is applied');
  assert.is((await edited(repo, { description: 'again' })).description, 'again');
});

test('default_branch: any valid name on an empty repository; an existing branch otherwise; a missing one is ignored', async () => {
  const empty = await userRepo(app, alice);
  const e = await edited(empty, { default_branch: 'dev' });
  assert.is(e.default_branch, 'dev');
  assert.is(git(repoFolder(app, alice.username, empty.name), ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/dev');

  const repo = await userRepo(app, alice, { auto_init: true });
  const dir = repoFolder(app, alice.username, repo.name);
  git(dir, ['branch', 'feature/x', 'main']);
  const ignored = await edited(repo, { default_branch: 'no-such-branch', description: 'still applied' });
  assert.is(ignored.default_branch, 'main', 'a branch that does not exist is ignored');
  assert.is(ignored.description, 'still applied');
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/main');

  const moved = await edited(repo, { default_branch: 'feature/x' });
  assert.is(moved.default_branch, 'feature/x');
  assert.is(moved.default_target_branch, 'feature/x');
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/feature/x');
  withClone(dir, (work) => assert.is(git(work, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(), 'feature/x'));
  assert.is((await getRepo(app, alice.username, repo.name)).data!.default_branch, 'feature/x');

  for (const default_branch of ['a..b', '-x', 'a b']) {
    const r = await edit(empty, { default_branch }, alice.auth);
    assert.is(r.response.status, 422, default_branch);
    assertSpec('repoEdit', r);
  }
});

test('422: fields of the wrong type or out of their enum; mirror settings on a repository that is not a mirror', async () => {
  const repo = await userRepo(app, alice);
  for (const body of [{ private: 'yes' }, { default_merge_style: 'octopus' }, { projects_mode: 'none' }, { website: 'w'.repeat(1025) },
    { description: 'd'.repeat(2049) }, { name: 5 }, { mirror_interval: '8h' }, { enable_prune: true }]) {
    const r = await raw(app, 'PATCH', `/repos/${alice.username}/${repo.name}`, { body: JSON.stringify(body), authorization: alice.auth });
    assert.is(r.response.status, 422, JSON.stringify(body));
    assertSpecAnswer('repoEdit', 422, r.body);
  }
});

test('400: malformed JSON', async () => {
  const repo = await userRepo(app, alice);
  const r = await raw(app, 'PATCH', `/repos/${alice.username}/${repo.name}`, { body: '{"description":', authorization: alice.auth });
  assert.is(r.response.status, 400);
  assertSpecAnswer('repoEdit', 400, r.body);
});

test.run();
