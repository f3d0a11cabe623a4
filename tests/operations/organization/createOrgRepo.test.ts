import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collaborations, labels, repositories } from '../../../src/db/schema/index.js';
import * as templates from '../../../src/templates/index.js';
import { fromRoot } from '../../../src/paths.js';
import { basic, startApp, type TestApp } from '../../helpers/harness.js';
import {
  assertFsck, existsSync, fresh, getRepo, git, messageOf, orgWorld, permissionOf, raw, readIn, repoFolder, rowOf,
  siteAdmin, swaggerOf, withClone, actor, type Actor, type CreateRepoOption, type OrgWorld,
} from '../../helpers/repos.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: OrgWorld;
let admin: Actor;
test.before(async () => {
  app = await startApp();
  w = await orgWorld(app);
  admin = await siteAdmin(app);
});
test.after(async () => {
  await app.close();
});

const create = (org: string, body: CreateRepoOption, authorization?: string) =>
  app.client(authorization).POST('/orgs/{org}/repos', { params: { path: { org } }, body });

async function created(body: Partial<CreateRepoOption> = {}, as: Actor = w.owner, org = w.name) {
  const name = body.name ?? fresh('repo');
  const r = await create(org, { ...body, name }, as.auth);
  assert.is(r.response.status, 201, `${JSON.stringify(body)} → ${r.response.status} ${JSON.stringify(r.error)}`);
  assertSpec('createOrgRepo', r);
  return { repo: r.data!, dir: repoFolder(app, org, name) };
}

async function repoRow(id: number) {
  const [row] = await app.services.deps.db.select().from(repositories).where(eq(repositories.id, id));
  return row;
}

/** Nothing of a refused creation is left: no row, no folder, nothing in the scratch folder. */
async function assertNothingCreated(org: string, name: string) {
  assert.is((await getRepo(app, org, name, admin.auth)).response.status, 404, `${org}/${name} exists`);
  assert.not.ok(existsSync(repoFolder(app, org, name)), `folder of ${org}/${name} exists`);
  const tmp = join(app.config.dataDir, 'tmp');
  if (existsSync(tmp)) assert.equal(readdirSync(tmp), [], 'scratch folder is empty');
}

async function expect422(body: CreateRepoOption, pattern: RegExp) {
  const r = await create(w.name, body, w.owner.auth);
  assert.is(r.response.status, 422, `${JSON.stringify(body)} → ${r.response.status}`);
  assertSpec('createOrgRepo', r);
  assert.match(messageOf(r.error), pattern);
  assert.is((r.error as { url: string }).url, swaggerOf(app));
  if (typeof body.name === 'string' && /^[-.\w]+$/.test(body.name)) await assertNothingCreated(w.name, body.name);
}

test('201: the org owner creates a repository; the answer is the full Repository, read-after-write holds', async () => {
  const name = fresh('Full');
  const before = Date.now() - 1000;
  const r = await create(w.name, { name, description: 'a first one' }, w.owner.auth);
  assert.is(r.response.status, 201);
  assertSpec('createOrgRepo', r);
  const repo = r.data!;
  const root = app.config.rootUrl;
  assert.ok(Number.isInteger(repo.id) && repo.id > 0);
  assert.ok(Date.parse(repo.created_at) >= before && Date.parse(repo.created_at) <= Date.now());
  assert.equal(
    { ...repo, id: 0, created_at: '', updated_at: '', owner: null },
    {
      id: 0, owner: null, name, full_name: `${w.name}/${name}`, description: 'a first one', empty: true, private: false,
      fork: false, template: false, parent: null, mirror: false, size: 0, language: '',
      languages_url: `${root}api/v1/repos/${w.name}/${name}/languages`, html_url: `${root}${w.name}/${name}`,
      url: `${root}api/v1/repos/${w.name}/${name}`, link: '', ssh_url: `ssh://git@127.0.0.1:2222/${w.name}/${name}.git`,
      clone_url: `${root}${w.name}/${name}.git`, original_url: '', website: '', stars_count: 0, forks_count: 0,
      watchers_count: repo.watchers_count, open_issues_count: 0, open_pr_counter: 0, release_counter: 0, branch_count: 0,
      default_branch: 'main', default_target_branch: 'main', archived: false, created_at: '', updated_at: '',
      archived_at: null, permissions: { admin: true, push: true, pull: true }, has_code: true, has_issues: true,
      internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
      external_tracker: null, has_wiki: true, external_wiki: null, has_pull_requests: true, has_projects: true,
      projects_mode: 'all', has_releases: true, has_packages: true, has_actions: true, ignore_whitespace_conflicts: false,
      allow_merge_commits: true, allow_rebase: true, allow_rebase_explicit: true, allow_squash_merge: true,
      allow_fast_forward_only_merge: true, allow_rebase_update: true, allow_merge_update: true, allow_manual_merge: false,
      autodetect_manual_merge: false, default_delete_branch_after_merge: false, default_merge_style: 'merge',
      default_update_style: 'merge', default_allow_maintainer_edit: false, avatar_url: '', internal: false,
      mirror_interval: '', mirror_updated: null, mirror_last_sync_at: null, object_format_name: 'sha1',
      repo_transfer: null, topics: [], licenses: [],
    },
  );
  assert.is(repo.owner!.id, w.org.id);
  assert.is(repo.owner!.login, w.name);
  assert.is(repo.owner!.type, 'Organization');

  const read = await getRepo(app, w.name, name, w.owner.auth);
  assert.is(read.response.status, 200);
  assert.equal(read.data, repo, 'GET answers exactly what POST answered');
  assert.is((await repoRow(repo.id))!.trustModel, 'default');
});

test('201: who may create — site admin, org owner, member of a team with can_create_org_repo', async () => {
  for (const [label, as] of [['site admin', admin], ['org owner', w.owner], ['creator team member', w.creator]] as const) {
    const { repo } = await created({}, as);
    assert.equal(repo.permissions, { admin: true, push: true, pull: true }, label);
    assert.is(repo.owner!.login, w.name, label);
  }
});

test('201: a token with write:organization (or all) may create; read:organization or write:repository alone may not', async () => {
  for (const scopes of [['write:organization'], ['all'], ['write:organization', 'read:user']]) {
    const token = await app.token(w.owner, scopes);
    const name = fresh('tok');
    const r = await create(w.name, { name }, token);
    assert.is(r.response.status, 201, scopes.join());
    assert.is(r.data!.name, name);
  }
  for (const scopes of [['read:organization'], ['write:repository'], ['write:user', 'read:organization']]) {
    const token = await app.token(w.owner, scopes);
    const name = fresh('tok');
    const r = await create(w.name, { name }, token);
    assert.is(r.response.status, 403, scopes.join());
    assertSpec('createOrgRepo', r);
    assert.equal(r.error, { message: 'token does not have at least one of required scope(s): [write:organization]', url: swaggerOf(app) });
    await assertNothingCreated(w.name, name);
  }
});

test('403: org members outside a creating team, members of read/admin teams without can_create_org_repo, outsiders', async () => {
  const cases = [['member in no team', w.member], ['read team member', w.reader], ['admin team member', w.teamAdmin], ['outsider', w.outsider]] as const;
  for (const [label, as] of cases) {
    const name = fresh('no');
    const r = await create(w.name, { name, auto_init: true }, as.auth);
    assert.is(r.response.status, 403, label);
    assertSpec('createOrgRepo', r);
    assert.equal(r.error, { message: 'Given user is not allowed to create repository in organization.', url: swaggerOf(app) }, label);
    await assertNothingCreated(w.name, name);
  }
});

test('401: anonymous callers and wrong credentials', async () => {
  const name = fresh('anon');
  const r = await create(w.name, { name });
  assert.is(r.response.status, 401);
  assertSpec('createOrgRepo', r);
  assert.equal(r.error, { message: 'token is required', url: swaggerOf(app) });
  for (const auth of [basic(w.owner.username, 'wrong-password'), `token ${'0'.repeat(40)}`]) {
    const bad = await create(w.name, { name }, auth);
    assert.is(bad.response.status, 401, auth);
    assertSpec('createOrgRepo', bad);
  }
  await assertNothingCreated(w.name, name);
});

test('404: an unknown organization, a user instead of an organization, an organization the caller cannot see', async () => {
  const restricted = await actor(app, { restricted: true });
  const unknown = await create('no-such-org', { name: fresh() }, admin.auth);
  assert.is(unknown.response.status, 404);
  assertSpec('createOrgRepo', unknown);
  assert.is(await unknown.response.text(), '');

  const user = await create(w.owner.username, { name: fresh() }, w.owner.auth);
  assert.is(user.response.status, 404, 'a user is not an organization');

  const hidden = await orgWorld(app, 'private', w);
  for (const [label, as] of [['outsider', hidden.outsider], ['restricted user', restricted]] as const) {
    const r = await create(hidden.name, { name: fresh() }, as.auth);
    assert.is(r.response.status, 404, `private org, ${label}`);
    assertSpec('createOrgRepo', r);
  }
  // Inside the private org the usual rules hold.
  assert.is((await create(hidden.name, { name: fresh() }, hidden.member.auth)).response.status, 403, 'a member sees it: 403');
  await created({}, hidden.creator, hidden.name);
  await created({}, admin, hidden.name);

  const limited = await orgWorld(app, 'limited', w);
  assert.is((await create(limited.name, { name: fresh() }, limited.outsider.auth)).response.status, 403, 'limited org, outsider');
  assert.is((await create(limited.name, { name: fresh() }, restricted.auth)).response.status, 404, 'limited org, restricted user');
  await created({}, limited.creator, limited.name);
});

test('201: org names are matched case-insensitively; the folder is lower case', async () => {
  const name = fresh('Case');
  const r = await create(w.name.toUpperCase(), { name }, w.owner.auth);
  assert.is(r.response.status, 201);
  assert.is(r.data!.full_name, `${w.name}/${name}`);
  assert.ok(existsSync(join(app.config.dataDir, 'repositories', w.name.toLowerCase(), `${name.toLowerCase()}.git`)));
});

test('the creator becomes admin collaborator unless a team already makes them admin', async () => {
  const db = app.services.deps.db;
  const collab = async (repoId: number, userId: number) =>
    (await db.select().from(collaborations).where(and(eq(collaborations.repoId, repoId), eq(collaborations.userId, userId))))[0];

  const byCreator = (await created({ private: true }, w.creator)).repo;
  assert.is((await collab(byCreator.id, w.creator.id))?.accessMode, 'admin', 'write team: the creator is added as admin');
  assert.is(await permissionOf(app, byCreator, w.creator), 'admin');
  const seen = await getRepo(app, w.name, byCreator.name, w.creator.auth);
  assert.is(seen.response.status, 200, 'the creator sees the private repository');
  assert.equal(seen.data!.permissions, { admin: true, push: true, pull: true });

  const byOwner = (await created({}, w.owner)).repo;
  assert.is(await collab(byOwner.id, w.owner.id), undefined, 'the Owners team already makes the owner admin');
  assert.is(await permissionOf(app, byOwner, w.owner), 'owner');

  const byAdmin = (await created({}, admin)).repo;
  assert.is((await collab(byAdmin.id, app.admin.id))?.accessMode, 'admin', 'a site admin outside the org is added as admin');
  assert.is(await permissionOf(app, byAdmin, app.admin.username), 'owner', 'a site admin acts as owner anyway');

  // A creator in an admin team that includes every repository is already admin through it.
  const both = await actor(app);
  const viewer = { user: await rowOf(app, w.owner), isMember: true, isOwner: true };
  const team = (await app.services.teams.create(w.org, { name: fresh('AdminCreators'), permission: 'admin', includesAllRepositories: true, canCreateOrgRepo: true })).team;
  await app.services.teams.addMember(team, viewer, await rowOf(app, both));
  const byBoth = (await created({}, both)).repo;
  assert.is(await collab(byBoth.id, both.id), undefined, 'an admin team gives admin: no collaboration');
  assert.is(await permissionOf(app, byBoth, both), 'admin');
});

test('teams that include all repositories get the new repository, other teams do not', async () => {
  const { repo } = await created({ private: true }, w.owner);
  assert.is(await permissionOf(app, repo, w.reader), 'read', 'read team with all repositories');
  assert.is(await permissionOf(app, repo, w.teamAdmin), 'admin', 'admin team with all repositories');
  assert.is(await permissionOf(app, repo, w.member), 'none', 'a member in no team');
  assert.is(await permissionOf(app, repo, w.creator), 'none', 'the creators team does not include all repositories');
  assert.is((await getRepo(app, w.name, repo.name, w.reader.auth)).data!.permissions!.pull, true);
  assert.is((await getRepo(app, w.name, repo.name, w.member.auth)).response.status, 404, 'private: invisible to a member in no team');

  const listed = async (teamId: number) => {
    const r = await app.client(w.owner.auth).GET('/teams/{id}/repos', { params: { path: { id: teamId }, query: { limit: 50 } } });
    assert.is(r.response.status, 200);
    return r.data!.map((x) => x.name);
  };
  assert.ok((await listed(w.teams.readers.id)).includes(repo.name));
  assert.ok((await listed(w.teams.admins.id)).includes(repo.name));
  assert.not.ok((await listed(w.teams.creators.id)).includes(repo.name));
});

test('201: private is kept; a private repository is 404 for anonymous callers and outsiders', async () => {
  const { repo } = await created({ private: true });
  assert.is(repo.private, true);
  assert.is((await repoRow(repo.id))!.isPrivate, true);
  for (const auth of [undefined, w.outsider.auth, w.member.auth]) {
    const r = await getRepo(app, w.name, repo.name, auth);
    assert.is(r.response.status, 404, String(auth));
  }
  const pub = (await created({ private: false })).repo;
  assert.is(pub.private, false);
  assert.is((await getRepo(app, w.name, pub.name)).response.status, 200, 'a public repository of a public org: anyone');
});

test('201: template is kept', async () => {
  assert.is((await created({ template: true })).repo.template, true);
  assert.is((await created({})).repo.template, false);
});

test('without auto_init: a bare, empty, valid repository whose HEAD names the default branch', async () => {
  const { repo, dir } = await created({ default_branch: '' });
  assert.is(repo.empty, true);
  assert.is(repo.default_branch, 'main', 'an empty default_branch means main');
  assert.is(repo.branch_count, 0);
  assert.ok(existsSync(dir));
  assert.is(git(dir, ['rev-parse', '--is-bare-repository']).trim(), 'true');
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/main');
  assert.is(git(dir, ['for-each-ref']).trim(), '', 'no refs at all');
  assert.is(git(dir, ['rev-parse', '--show-object-format']).trim(), 'sha1');
  assertFsck(dir);
  withClone(dir, (work) => assert.is(git(work, ['status', '--porcelain']).trim(), '', 'an empty repository clones'));
});

test('auto_init: one "Initial commit" by the caller on the default branch with the Default README; empty=false', async () => {
  const name = fresh('Init');
  const { repo, dir } = await created({ name, description: 'Things & stuff', auto_init: true }, w.creator);
  assert.is(repo.empty, false);
  assert.is(repo.branch_count, 1);
  assert.is(repo.default_branch, 'main');
  assert.is((await repoRow(repo.id))!.isEmpty, false);
  assertFsck(dir);
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/main');
  assert.is(git(dir, ['for-each-ref', '--format=%(refname)']).trim(), 'refs/heads/main', 'one branch, no other ref');
  assert.is(git(dir, ['rev-list', '--count', 'main']).trim(), '1');
  const [subject, author, committer] = git(dir, ['log', '-1', '--format=%s%n%an <%ae>%n%cn <%ce>', 'main']).trim().split('\n');
  assert.is(subject, 'Initial commit');
  assert.is(author, `${w.creator.username} <${w.creator.email}>`, 'authored by the caller');
  assert.is(committer, author);
  assert.is(git(dir, ['ls-tree', '--name-only', 'main']).trim(), 'README.md', 'only the README without gitignores or license');
  withClone(dir, (work) => {
    assert.is(git(work, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(), 'main', 'the clone checks out the default branch');
    assert.is(readIn(work, 'README.md'), `# ${name}\n\nThings & stuff\n`);
  });
});

test('auto_init: readme "Default" (any case), with and without a description', async () => {
  for (const readme of ['default', undefined]) {
    const name = fresh('Readme');
    const { dir } = await created({ name, auto_init: true, readme });
    assert.is(git(dir, ['show', 'main:README.md']), `# ${name}\n\n\n`, `${readme}: Gitea's Default template with an empty description`);
  }
});

test('default_branch: a custom branch names HEAD, gets the commit, and is answered', async () => {
  const { repo, dir } = await created({ auto_init: true, default_branch: 'release/v1' });
  assert.is(repo.default_branch, 'release/v1');
  assert.is(repo.default_target_branch, 'release/v1');
  assert.is(git(dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/release/v1');
  assert.is(git(dir, ['for-each-ref', '--format=%(refname)']).trim(), 'refs/heads/release/v1');
  withClone(dir, (work) => assert.is(git(work, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(), 'release/v1'));

  const bare = await created({ default_branch: 'develop' });
  assert.is(bare.repo.default_branch, 'develop');
  assert.is(bare.repo.empty, true);
  assert.is(git(bare.dir, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/develop');
});

test('422: a default branch that is not a valid git ref name', async () => {
  for (const default_branch of ['a..b', '-x', 'has space', 'x.lock', 'a~b', 'a:b', 'a^b', 'end/', '/start', 'x.', '@', 'a//b', 'a\\b']) {
    await expect422({ name: fresh('br'), default_branch }, /default_branch/);
  }
  await expect422({ name: fresh('br'), default_branch: 'b'.repeat(101) }, /default_branch/);
});

test('object_format_name: sha256 and sha1 (the default, also for "")', async () => {
  const sha256 = await created({ auto_init: true, object_format_name: 'sha256' });
  assert.is(sha256.repo.object_format_name, 'sha256');
  assert.is(git(sha256.dir, ['rev-parse', '--show-object-format']).trim(), 'sha256');
  assert.match(git(sha256.dir, ['rev-parse', 'main']).trim(), /^[0-9a-f]{64}$/);
  assertFsck(sha256.dir);
  withClone(sha256.dir, (work) => {
    assert.is(git(work, ['rev-parse', '--show-object-format']).trim(), 'sha256', 'the clone is sha256 too');
    assert.ok(existsSync(join(work, 'README.md')));
  });
  const empty256 = await created({ object_format_name: 'sha256' });
  assert.is(git(empty256.dir, ['rev-parse', '--show-object-format']).trim(), 'sha256', 'an empty sha256 repository');

  for (const [object_format_name, auto_init] of [['sha1', true], ['', false]] as const) {
    const { repo, dir } = await created({ auto_init, object_format_name });
    assert.is(repo.object_format_name, 'sha1', object_format_name);
    assert.is(git(dir, ['rev-parse', '--show-object-format']).trim(), 'sha1');
    if (auto_init) assert.match(git(dir, ['rev-parse', 'main']).trim(), /^[0-9a-f]{40}$/);
  }
  const bad = await raw(app, 'POST', `/orgs/${w.name}/repos`, { body: JSON.stringify({ name: fresh(), object_format_name: 'md5' }), authorization: w.owner.auth });
  assert.is(bad.response.status, 422);
  assertSpecAnswer('createOrgRepo', 422, bad.body);
  assert.match(bad.body.message, /object_format_name/);
});

test('trust_model: every value is stored; "" and omitted mean default; others are 422', async () => {
  // Omitted is checked by the first test.
  for (const [given, stored] of [['collaborator', 'collaborator'], ['committer', 'committer'],
    ['collaboratorcommitter', 'collaboratorcommitter'], ['', 'default']] as const) {
    const { repo } = await created({ trust_model: given });
    assert.is((await repoRow(repo.id))!.trustModel, stored, String(given));
  }
  const name = fresh();
  const bad = await raw(app, 'POST', `/orgs/${w.name}/repos`, { body: JSON.stringify({ name, trust_model: 'everyone' }), authorization: w.owner.auth });
  assert.is(bad.response.status, 422);
  assert.match(bad.body.message, /trust_model/);
  await assertNothingCreated(w.name, name);
});

test('auto_init with gitignores: comma-separated templates (any case, spaces allowed) concatenated into .gitignore', async () => {
  const { dir } = await created({ auto_init: true, gitignores: 'Node, python' });
  assertFsck(dir);
  assert.is(git(dir, ['ls-tree', '--name-only', 'main']).trim().split('\n').sort().join(','), '.gitignore,README.md');
  const gitignore = git(dir, ['show', 'main:.gitignore']);
  // Gitea's layout, byte for byte: each template under a `# ---> Name` line, followed by an empty line.
  const shipped = (name: string) => readFileSync(fromRoot('src', 'templates', 'gitignore', `${name}.gitignore`), 'utf8');
  assert.is(gitignore, `# ---> Node\n${shipped('Node')}\n# ---> Python\n${shipped('Python')}\n`);
  assert.match(gitignore, /node_modules\//);
  assert.match(gitignore, /__pycache__/);
  const names = ['C++', 'Go', 'Java', 'Node', 'Python', 'Rust', 'macOS', 'Windows', 'JetBrains', 'VisualStudio', 'Terraform', 'Unity'];
  const all = await created({ auto_init: true, gitignores: names.map((n) => n.toLowerCase()).join(',') });
  assert.is(git(all.dir, ['show', 'main:.gitignore']), names.map((n) => `# ---> ${n}\n${shipped(n)}\n`).join(''), 'Gitea\'s names, any case');
  assert.ok(templates.gitignoreNames.length >= 300, `Gitea's whole set (${templates.gitignoreNames.length})`);
  for (const n of names) assert.ok(templates.gitignoreNames.includes(n), n);
});

test('auto_init with a license: LICENSE holds the standard text; licenses lists it', async () => {
  const year = String(new Date().getUTCFullYear());
  const markers: Record<string, RegExp> = {
    MIT: /^MIT License\n\nCopyright \(c\) \d{4} .+\n\nPermission is hereby granted, free of charge/,
    'Apache-2.0': /^Apache License\nVersion 2\.0, January 2004/,
    'BSD-3-Clause': /^Copyright \(c\) \d{4} .+\.\n\nRedistribution and use in source and binary forms/,
    'GPL-3.0-only': /^GNU GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007/,
    'MPL-2.0': /^Mozilla Public License Version 2\.0/,
  };
  for (const [license, marker] of Object.entries(markers)) {
    const { repo, dir } = await created({ auto_init: true, license });
    assert.equal(repo.licenses, [license], license);
    const text = git(dir, ['show', 'main:LICENSE']);
    assert.match(text, marker, license);
    assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'), `${license} ends with one newline`);
  }
  const mit = await created({ auto_init: true, license: 'mit', gitignores: 'Go' });
  assert.equal(mit.repo.licenses, ['MIT'], 'a license name in any case');
  assertFsck(mit.dir);
  withClone(mit.dir, (work) => {
    assert.ok(readIn(work, 'LICENSE').includes(`Copyright (c) ${year} ${w.name}\n`), 'the year and the owner are filled in');
    assert.equal(git(work, ['ls-files']).trim().split('\n').sort(), ['.gitignore', 'LICENSE', 'README.md']);
    assert.is(readIn(work, '.gitignore'), `# ---> Go\n${templates.gitignore('Go')}\n`);
  });
  const noInit = await created({ license: 'MIT' });
  assert.equal(noInit.repo.licenses, [], 'without auto_init nothing is committed');
  assert.is(noInit.repo.empty, true);
});

test('422: an unknown gitignore, license, readme or issue_labels template names the available ones; nothing is created', async () => {
  await expect422({ name: fresh(), auto_init: true, gitignores: 'Node,Cobol' },
    /^gitignore template does not exist \[Cobol\], available templates: \[AL, Actionscript, Ada, .*, Go, .*, Node, .*\]$/);
  // Every SPDX license is a template (WTFPL among them); a name SPDX does not have is not.
  await expect422({ name: fresh(), auto_init: true, license: 'No-Such-License-1.0' },
    /^license template does not exist \[No-Such-License-1\.0\], available templates: \[.*Apache-2\.0, .*MIT, .*WTFPL.*\]$/);
  await expect422({ name: fresh(), auto_init: true, readme: 'Fancy' }, /^readme template does not exist \[Fancy\], available templates: \[Default\]$/);
  await expect422({ name: fresh(), issue_labels: 'Huge' }, /^label set template does not exist \[Huge\], available templates: \[Advanced, Default\]$/);
  // Checked even without auto_init: a bad request is refused whatever else it says.
  await expect422({ name: fresh(), gitignores: 'Nope' }, /gitignore template does not exist/);
  await expect422({ name: fresh(), license: 'Nope' }, /license template does not exist/);
});

test('issue_labels: Default and Advanced import their label sets; none without', async () => {
  const db = app.services.deps.db;
  const labelsOf = async (repoId: number) =>
    (await db.select().from(labels).where(eq(labels.repoId, repoId))).map((l) => ({ name: l.name, color: l.color, description: l.description, exclusive: l.exclusive }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const expected = (set: string) =>
    templates.labelSet(set).map((l) => ({ name: l.name, color: l.color, description: l.description, exclusive: l.exclusive ?? false }))
      .sort((a, b) => a.name.localeCompare(b.name));

  const dflt = await created({ issue_labels: 'Default' });
  const got = await labelsOf(dflt.repo.id);
  assert.equal(got, expected('Default'));
  assert.ok(got.some((l) => l.name === 'bug'));

  const adv = await created({ issue_labels: 'advanced', auto_init: true });
  const advanced = await labelsOf(adv.repo.id);
  assert.equal(advanced, expected('Advanced'));
  assert.ok(advanced.some((l) => l.name === 'Priority/High' && l.exclusive));

  assert.equal(await labelsOf((await created({})).repo.id), []);
  assert.equal(await labelsOf((await created({ issue_labels: '' })).repo.id), []);
});

test('409: a name the organization already uses, case-insensitively; the first repository is untouched', async () => {
  const { repo, dir } = await created({ name: fresh('Dup'), auto_init: true });
  const head = git(dir, ['rev-parse', 'main']).trim();
  for (const name of [repo.name, repo.name.toUpperCase(), repo.name.toLowerCase()]) {
    const r = await create(w.name, { name }, w.owner.auth);
    assert.is(r.response.status, 409, name);
    assertSpec('createOrgRepo', r);
    assert.equal(r.error, { message: 'The repository with the same name already exists.', url: swaggerOf(app) });
  }
  assert.is(git(dir, ['rev-parse', 'main']).trim(), head, 'the existing repository is unchanged');
  assertFsck(dir);
  assert.equal((await getRepo(app, w.name, repo.name, w.owner.auth)).data, repo);
  const tmp = join(app.config.dataDir, 'tmp');
  if (existsSync(tmp)) assert.equal(readdirSync(tmp), []);

  // The same name in another organization and for a user is free.
  const other = await orgWorld(app, 'public', w);
  await created({ name: repo.name }, other.owner, other.name);
  const mine = await app.client(w.owner.auth).POST('/user/repos', { body: { name: repo.name } });
  assert.is(mine.response.status, 201);
});

test('422: reserved names, reserved patterns and names with "..", case-insensitively', async () => {
  for (const name of ['.', '-']) await expect422({ name }, /name is reserved/);
  await expect422({ name: '..' }, /name is (reserved|invalid)/);
  for (const name of ['x.git', 'X.GIT', 'x.wiki', 'x.Wiki', 'x.rss', 'x.atom', 'X.ATOM']) await expect422({ name }, /name pattern is not allowed/);
  for (const name of ['a..b', '..a', 'a..']) await expect422({ name }, /name is invalid/);
});

test('422: names with characters outside [-.\\w], empty, too long, missing or of the wrong type name the field', async () => {
  for (const name of ['a b', 'a/b', 'ä', 'a@b', 'a:b', 'a#b', 'a~b', '', 'x'.repeat(101)]) {
    await expect422({ name }, /\[name\]/);
  }
  const hundred = fresh('a-b_c.D').padEnd(100, 'z');
  assert.is((await created({ name: hundred })).repo.name, hundred, '100 characters are allowed');

  for (const body of ['{}', JSON.stringify({ name: 42 }), JSON.stringify({ name: fresh(), private: 'yes' }), JSON.stringify({ name: fresh(), description: 'd'.repeat(2049) }), '[]', 'null']) {
    const r = await raw(app, 'POST', `/orgs/${w.name}/repos`, { body, authorization: w.owner.auth });
    assert.is(r.response.status, 422, body.slice(0, 60));
    assertSpecAnswer('createOrgRepo', 422, r.body);
  }
  const none = await raw(app, 'POST', `/orgs/${w.name}/repos`, { body: '{}', authorization: w.owner.auth });
  assert.equal(none.body, { message: '[name]: Required', url: swaggerOf(app) });
});

test('400: a malformed JSON body', async () => {
  const r = await raw(app, 'POST', `/orgs/${w.name}/repos`, { body: '{"name": "x", ', authorization: w.owner.auth });
  assert.is(r.response.status, 400);
  assertSpecAnswer('createOrgRepo', 400, r.body);
  assert.match(r.body.message, /invalid JSON body/);
});

test.run();
