// The package cleanup rule pages (Gitea's /user/settings/packages and /org/{org}/settings/packages) through
// HTTP with a signed-in web session: adding, editing, deleting rules with Gitea's form and its validation
// (choices, regular expressions, one rule per type), CSRF, who may manage whose rules, and the preview,
// which must list exactly what the `cleanup_packages` task (run through the admin API) then removes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { and, eq, inArray } from 'drizzle-orm';
import { packageCleanupRules, packages, packageVersions } from '../../src/db/schema/index.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, adminActor, fresh, type Actor } from '../helpers/orgs.js';
import { packageWorld, publishGeneric, type PackageWorld } from '../helpers/packages.js';
import { signIn, WebSession } from '../helpers/webSession.js';
import { makeImage, ociIndexType, pushImage, putManifest, registryAuth, type Image } from '../helpers/containers.js';

let app: TestApp;
let w: PackageWorld;
test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
});
test.after(async () => {
  await app.close();
});

const db = () => app.services.deps.db;
const userRoot = '/user/settings/packages';
const orgRoot = () => `/org/${w.org.username}/settings/packages`;

const form = (over: Record<string, string> = {}) => ({
  action: 'save', enabled: 'on', type: 'generic', keep_count: '0', keep_pattern: '', remove_days: '0', remove_pattern: '', match_full_name: '', ...over,
});

/** Adds a rule through the form; answers its id (from the redirect to its page). */
async function addRule(s: WebSession, root: string, fields: Record<string, string>): Promise<number> {
  const res = await s.post(`${root}/rules/add`, form(fields));
  assert.is(res.status, 303, `add rule: ${res.status} ${await res.clone().text()}`);
  const m = new RegExp(`${root}/rules/(\\d+)$`).exec(res.headers.get('location') ?? '');
  assert.ok(m, `redirected to the rule's page: ${res.headers.get('location')}`);
  return Number(m![1]);
}

async function rulesOf(ownerId: number) {
  return db().select().from(packageCleanupRules).where(eq(packageCleanupRules.ownerId, ownerId));
}

/** `name@version` of what the preview page lists. */
async function previewOf(s: WebSession, root: string, id: number): Promise<string[]> {
  const res = await s.get(`${root}/rules/${id}/preview`);
  assert.is(res.status, 200);
  const page = await res.text();
  const rows = [...page.matchAll(/<td class="name">([^<]*)<\/td><td class="version-name">([^<]*)<\/td>/g)].map((m) => `${m[1]}@${m[2]}`);
  assert.ok(page.includes(`<span class="count">${rows.length}</span>`), 'the count matches the rows');
  return rows.sort();
}

/** `name@version` of every version of a type the owner has (the package API). */
async function versionsOf(by: Actor, owner: string, type: 'generic' | 'container' = 'generic'): Promise<string[]> {
  const res = await app.client(by.auth).GET('/packages/{owner}', { params: { path: { owner }, query: { type, limit: 50 } } });
  assert.is(res.response.status, 200);
  return res.data!.map((p) => `${p.name}@${p.version}`).sort();
}

async function runCleanup(): Promise<void> {
  const admin = await adminActor(app);
  const res = await fetch(`${app.url}/api/v1/admin/cron/cleanup_packages`, { method: 'POST', headers: { Authorization: admin.auth } });
  assert.is(res.status, 204);
}

/** Makes the named versions of the owner look `days` old. */
async function age(ownerId: number, names: string[], days: number): Promise<void> {
  for (const nv of names) {
    const [name, version] = nv.split('@') as [string, string];
    const [pkg] = await db().select().from(packages).where(and(eq(packages.ownerId, ownerId), eq(packages.lowerName, name.toLowerCase())));
    await db().update(packageVersions).set({ createdAt: new Date(Date.now() - days * 86_400_000) })
      .where(and(eq(packageVersions.packageId, pkg!.id), eq(packageVersions.lowerVersion, version.toLowerCase())));
  }
}

test('signed out: the pages lead to the sign-in page; a form without its CSRF token changes nothing (400)', async () => {
  const anon = new WebSession(app);
  const list = await anon.get(userRoot);
  assert.is(list.status, 303);
  assert.is(list.headers.get('location'), `/user/login?redirect_to=${encodeURIComponent(userRoot)}`);
  assert.is((await anon.get(`${orgRoot()}/rules/add`)).status, 303);

  const u = await actor(app);
  const s = await signIn(app, u);
  const page = await s.get(userRoot);
  assert.is(page.status, 200);
  assert.match(await page.text(), 'class="muted no-rules"');
  for (const csrf of [null, 'forged-token-forged-token-forged-token-abcd']) {
    const res = await s.post(`${userRoot}/rules/add`, form(), { csrf });
    assert.is(res.status, 400);
    assert.match(await res.text(), 'Invalid CSRF token.');
  }
  assert.equal(await rulesOf(u.id), []);
});

test('the form refuses what Gitea\'s binding refuses, with the message, and stores nothing', async () => {
  const u = await actor(app);
  const s = await signIn(app, u);
  const cases: [Record<string, string>, string][] = [
    [{ keep_pattern: '(' }, 'keep_pattern: the regular expression is invalid'],
    [{ remove_pattern: '[a-' }, 'remove_pattern: the regular expression is invalid'],
    [{ remove_pattern: 'v(?=1)' }, 'remove_pattern: look-arounds are not supported'],
    [{ keep_pattern: '(a)\\1' }, 'keep_pattern: back-references are not supported'],
    [{ keep_count: '3' }, 'keep_count: must be one of 0, 1, 5, 10, 25, 50, 100'],
    [{ keep_count: 'many' }, 'keep_count: must be one of'],
    [{ remove_days: '8' }, 'remove_days: must be one of 0, 7, 14, 30, 60, 90, 180'],
    [{ type: 'maven' }, 'type: must be one of generic, npm, pypi, container'],
    [{ action: 'frobnicate' }, 'action: must be save or remove'],
  ];
  for (const [fields, message] of cases) {
    const res = await s.post(`${userRoot}/rules/add`, form(fields));
    assert.is(res.status, 422, JSON.stringify(fields));
    const page = await res.text();
    assert.match(page, message, JSON.stringify(fields));
    // The form is shown again with what was sent.
    if (fields.keep_pattern) assert.match(page, `name="keep_pattern" value="${fields.keep_pattern}"`);
  }
  assert.equal(await rulesOf(u.id), []);
});

test('a user\'s rule: add, one per type (409), preview lists exactly what cleanup_packages removes, edit, disable, delete', async () => {
  const u = await actor(app);
  const s = await signIn(app, u);
  for (const v of ['1.0.0', '1.1.0', '1.2.0', '2.0.0', 'keep-a', 'keep-b']) await publishGeneric(app, u, u.username, { name: 'tool', version: v, body: `tool ${v} ${u.username}` });
  for (const v of ['1.0.0', '1.5.0']) await publishGeneric(app, u, u.username, { name: 'lib', version: v, body: `lib ${v} ${u.username}` });
  const all = await versionsOf(u, u.username);
  assert.is(all.length, 8);

  // Keep the newest of each package and keep-*; remove 1.x only.
  const id = await addRule(s, userRoot, { keep_count: '1', keep_pattern: 'KEEP-.*', remove_pattern: '1\\..*' });
  const [row] = await rulesOf(u.id);
  assert.equal({ ...row, createdAt: undefined }, {
    id, ownerId: u.id, type: 'generic', enabled: true, keepCount: 1, keepPattern: 'KEEP-.*', removeDays: 0, removePattern: '1\\..*', matchFullName: false, createdAt: undefined,
  });
  const edit = await s.get(`${userRoot}/rules/${id}`);
  assert.is(edit.status, 200);
  const editPage = await edit.text();
  assert.match(editPage, 'name="keep_pattern" value="KEEP-.*"');
  assert.match(editPage, '<option value="1" selected>1</option>');
  const list = await (await s.get(userRoot)).text();
  assert.match(list, `<tr class="rule" data-id="${id}" data-type="generic">`);

  // One rule per type: the same type again is refused and the first stays as it is.
  const again = await s.post(`${userRoot}/rules/add`, form({ keep_count: '5' }));
  assert.is(again.status, 409);
  assert.match(await again.text(), 'type: there is already a cleanup rule for generic packages');
  assert.is((await rulesOf(u.id)).length, 1);

  // tool: keep-b is the newest (kept by the count), keep-a by the pattern, 2.0.0 does not match 1\..*;
  // lib: 1.5.0 is the newest.
  const preview = await previewOf(s, userRoot, id);
  assert.equal(preview, ['lib@1.0.0', 'tool@1.0.0', 'tool@1.1.0', 'tool@1.2.0']);

  // Disabled, the task leaves everything (the preview still shows what the rule would do).
  assert.is((await s.post(`${userRoot}/rules/${id}`, form({ enabled: '', keep_count: '1', keep_pattern: 'KEEP-.*', remove_pattern: '1\\..*' }))).status, 303);
  assert.is((await rulesOf(u.id))[0]!.enabled, false);
  await runCleanup();
  assert.equal(await versionsOf(u, u.username), all);
  assert.equal(await previewOf(s, userRoot, id), preview);

  // Enabled again: the task removes exactly what the preview listed.
  assert.is((await s.post(`${userRoot}/rules/${id}`, form({ keep_count: '1', keep_pattern: 'KEEP-.*', remove_pattern: '1\\..*' }))).status, 303);
  await runCleanup();
  const left = await versionsOf(u, u.username);
  assert.equal(all.filter((v) => !left.includes(v)).sort(), preview);
  assert.equal(left, ['lib@1.5.0', 'tool@2.0.0', 'tool@keep-a', 'tool@keep-b']);
  assert.equal(await previewOf(s, userRoot, id), []);

  // Edit: age and full-name matching; the type stays whatever the form says.
  const res = await s.post(`${userRoot}/rules/${id}`, form({ type: 'npm', keep_count: '0', remove_days: '7', remove_pattern: 'tool/.*', match_full_name: 'on' }));
  assert.is(res.status, 303);
  assert.is(res.headers.get('location'), `${userRoot}/rules/${id}`);
  const [edited] = await rulesOf(u.id);
  assert.equal([edited!.type, edited!.keepCount, edited!.removeDays, edited!.removePattern, edited!.matchFullName, edited!.keepPattern], ['generic', 0, 7, 'tool/.*', true, '']);
  assert.equal(await previewOf(s, userRoot, id), [], 'everything is younger than 7 days');
  await age(u.id, ['tool@2.0.0', 'tool@keep-a', 'lib@1.5.0'], 8);
  const aged = await previewOf(s, userRoot, id);
  assert.equal(aged, ['tool@2.0.0', 'tool@keep-a'], 'old and matching tool/.*; lib does not match');
  await runCleanup();
  assert.equal(await versionsOf(u, u.username), ['lib@1.5.0', 'tool@keep-b']);

  // An invalid edit keeps the rule as it was.
  const bad = await s.post(`${userRoot}/rules/${id}`, form({ remove_pattern: '(' }));
  assert.is(bad.status, 422);
  assert.is((await rulesOf(u.id))[0]!.removePattern, 'tool/.*');

  // Delete: back to the list, the rule is gone, its pages are 404.
  const del = await s.post(`${userRoot}/rules/${id}`, { action: 'remove' });
  assert.is(del.status, 303);
  assert.is(del.headers.get('location'), userRoot);
  assert.equal(await rulesOf(u.id), []);
  assert.is((await s.get(`${userRoot}/rules/${id}`)).status, 404);
  assert.is((await s.get(`${userRoot}/rules/${id}/preview`)).status, 404);
  assert.is((await s.post(`${userRoot}/rules/${id}`, { action: 'remove' }, { csrf: s.csrf })).status, 404);
  // With no rule the task removes nothing more.
  await runCleanup();
  assert.equal(await versionsOf(u, u.username), ['lib@1.5.0', 'tool@keep-b']);
});

test('another user\'s rule is 404 on every page and form; nothing changes', async () => {
  const [owner, other] = [await actor(app), await actor(app)];
  const so = await signIn(app, owner);
  const id = await addRule(so, userRoot, { keep_count: '5' });
  const s = await signIn(app, other);
  assert.is((await s.get(`${userRoot}/rules/${id}`)).status, 404);
  assert.is((await s.get(`${userRoot}/rules/${id}/preview`)).status, 404);
  assert.is((await s.post(`${userRoot}/rules/${id}`, { action: 'remove' }, { csrf: s.csrf })).status, 404);
  assert.is((await s.post(`${userRoot}/rules/${id}`, form({ keep_count: '0' }), { csrf: s.csrf })).status, 404);
  assert.is((await s.get(`${userRoot}/rules/abc`)).status, 404);
  // The other user's own list does not show it; their own rule for the same type is theirs alone.
  assert.not.match(await (await s.get(userRoot)).text(), `data-id="${id}"`);
  const theirs = await addRule(s, userRoot, {});
  assert.ok(theirs !== id);
  const [kept] = await rulesOf(owner.id);
  assert.equal([kept!.id, kept!.keepCount], [id, 5]);
  // /org/{name} of a user is no organization.
  assert.is((await s.get(`/org/${owner.username}/settings/packages`)).status, 404);
});

test('an organization\'s rules: its owners and site administrators; members (even package writers) and others 404', async () => {
  const so = await signIn(app, w.orgOwner);
  assert.is((await so.get(orgRoot())).status, 200);
  const id = await addRule(so, orgRoot(), { remove_pattern: 'old-.*' });
  const [row] = await rulesOf(w.org.id!);
  assert.is(row!.id, id);
  for (const who of [w.writer, w.reader, w.outsider]) {
    const s = await signIn(app, who);
    for (const path of [orgRoot(), `${orgRoot()}/rules/add`, `${orgRoot()}/rules/${id}`, `${orgRoot()}/rules/${id}/preview`]) {
      assert.is((await s.get(path)).status, 404, `${who.username} GET ${path}`);
    }
    assert.is((await s.post(`${orgRoot()}/rules/add`, form({ type: 'npm' }), { csrf: s.csrf })).status, 404);
    assert.is((await s.post(`${orgRoot()}/rules/${id}`, { action: 'remove' }, { csrf: s.csrf })).status, 404);
    // Not the user's own either: their own settings stay empty.
    assert.match(await (await s.get(userRoot)).text(), 'no-rules');
  }
  assert.equal((await rulesOf(w.org.id!)).map((r) => r.type), ['generic']);
  assert.is((await (await signIn(app, w.user)).get(`/org/${fresh('nobody')}/settings/packages`)).status, 404);

  // The org's rule drives the task over the org's packages (published by a writer).
  for (const v of ['old-1', 'old-2', 'new-1']) await publishGeneric(app, w.writer, w.org.username!, { name: 'orgtool', version: v, body: `orgtool ${v}` });
  const preview = await previewOf(so, orgRoot(), id);
  assert.equal(preview, ['orgtool@old-1', 'orgtool@old-2']);
  await runCleanup();
  assert.equal(await versionsOf(w.orgOwner, w.org.username!), ['orgtool@new-1']);

  // A site administrator manages the org's rules too.
  const admin = await signIn(app, app.admin);
  assert.is((await admin.get(`${orgRoot()}/rules/${id}`)).status, 200);
  assert.is((await admin.post(`${orgRoot()}/rules/${id}`, { action: 'remove' })).status, 303);
  assert.equal(await rulesOf(w.org.id!), []);
});

test('a container rule: the preview and the task keep an image\'s latest and the manifests an index names', async () => {
  const u = await actor(app);
  const s = await signIn(app, u);
  const auth = await registryAuth(app, u.basic);
  const image = `${u.username}/app`;
  const [a, b, amd, arm] = ['a', 'b', 'amd64', 'arm64'].map((seed) => makeImage(`${image} ${seed}`)) as [Image, Image, Image, Image];
  await pushImage(app, auth, image, a, 'latest');
  await pushImage(app, auth, image, b, 'old');
  await pushImage(app, auth, image, amd, amd.digest);
  await pushImage(app, auth, image, arm, arm.digest);
  const index = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: ociIndexType, manifests: [amd, arm].map((m, i) => (
    { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: m.digest, size: m.manifest.length, platform: { architecture: ['amd64', 'arm64'][i], os: 'linux' } })) }));
  assert.is((await putManifest(app, auth, image, 'multi', index, ociIndexType)).status, 201);
  const all = await versionsOf(u, u.username, 'container');
  assert.equal(all, ['app@latest', 'app@multi', 'app@old', `app@${amd.digest}`, `app@${arm.digest}`].sort());

  const id = await addRule(s, userRoot, { type: 'container' });
  const preview = await previewOf(s, userRoot, id);
  assert.equal(preview, ['app@multi', 'app@old']);
  await runCleanup();
  const left = await versionsOf(u, u.username, 'container');
  assert.equal(all.filter((v) => !left.includes(v)).sort(), preview);
  // Once the index is gone, nothing names its manifests any more: the next preview lists them.
  assert.equal(await previewOf(s, userRoot, id), [`app@${amd.digest}`, `app@${arm.digest}`].sort());
});

test('a pattern that backtracks without end: the preview refuses it (422) and the task skips the rule', async () => {
  const u = await actor(app);
  const s = await signIn(app, u);
  const slow = `${'a'.repeat(34)}-b`;
  await publishGeneric(app, u, u.username, { name: 'slow', version: slow });
  await publishGeneric(app, u, u.username, { name: 'slow', version: '2' });
  const id = await addRule(s, userRoot, { keep_pattern: '(a+)+' });
  const res = await s.get(`${userRoot}/rules/${id}/preview`);
  assert.is(res.status, 422);
  assert.match(await res.text(), 'takes too long to match');
  const started = Date.now();
  await runCleanup();
  assert.ok(Date.now() - started < 30_000, 'the task is not held for long');
  assert.equal(await versionsOf(u, u.username), [`slow@${slow}`, 'slow@2'].sort(), 'nothing is removed by a rule that could not be applied');
  const [ids] = await db().select({ id: packageCleanupRules.id }).from(packageCleanupRules).where(inArray(packageCleanupRules.id, [id]));
  assert.ok(ids, 'the rule stays');
});

test('with PACKAGES_ENABLED=false the pages are 404', async () => {
  const off = await startApp({ PACKAGES_ENABLED: 'false' });
  try {
    const u = await off.user();
    const s = await signIn(off, u);
    assert.is((await s.get(userRoot)).status, 404);
    assert.is((await s.get(`${userRoot}/rules/add`)).status, 404);
    assert.is((await s.post(`${userRoot}/rules/add`, form(), { csrf: s.csrf })).status, 404);
  } finally {
    await off.close();
  }
});

test.run();
