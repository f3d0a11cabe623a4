// The generic package format (`/api/packages/{owner}/generic/{name}/{version}/{file}`, not an operation of
// the REST API) driven by curl: publish, download byte-identical, no overwrite, who may publish and read,
// limits from configuration, deleting a file and a version, and blobs kept once.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { and, eq, sql } from 'drizzle-orm';
import { events, packageFiles, packageVersions } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { fresh } from '../../helpers/orgs.js';
import { genericUrl, packageWorld, publishGeneric, putGeneric, type PackageWorld } from '../../helpers/packages.js';

const run = promisify(execFile);
let app: TestApp;
let w: PackageWorld;
const dir = mkdtempSync(join(tmpdir(), 'anvil-generic-'));

test.before(async () => {
  app = await startApp({ PACKAGES_LIMIT_SIZE_GENERIC: String(64 * 1024), PACKAGES_LIMIT_TOTAL_OWNER_COUNT: '5' });
  w = await packageWorld(app);
});
test.after(async () => {
  await app.close();
});

const token = (auth: string) => auth.replace(/^token /, '');

/** curl with the user's token as the password; answers the HTTP status. */
async function curl(args: string[]): Promise<number> {
  const { stdout } = await run('curl', ['-s', '-o', join(dir, 'out'), '-w', '%{http_code}', ...args]);
  return Number(stdout);
}

test('curl: publish, download byte-identical, 409 for the same file again', async () => {
  const bytes = randomBytes(40_000);
  writeFileSync(join(dir, 'in.bin'), bytes);
  const url = genericUrl(app, w.user.username, 'tool', '1.2.3', 'tool.tar.gz');
  assert.is(await curl(['--user', `${w.user.username}:${token(w.user.auth)}`, '--upload-file', join(dir, 'in.bin'), url]), 201);
  assert.is(await curl(['--user', `${w.user.username}:${token(w.user.auth)}`, url]), 200);
  assert.ok(readFileSync(join(dir, 'out')).equals(bytes), 'downloaded bytes differ');
  // Public user: anonymous downloads too.
  assert.is(await curl([url]), 200);
  assert.is(await curl(['--user', `${w.user.username}:${token(w.user.auth)}`, '--upload-file', join(dir, 'in.bin'), url]), 409);
  // Another file in the same version is fine; the version lists both.
  assert.is((await putGeneric(app, w.user.auth, w.user.username, 'tool', '1.2.3', 'tool.sha256', 'abc')).status, 201);
  const files = await app.client(w.user.auth).GET('/packages/{owner}/{type}/{name}/{version}/files', { params: { path: { owner: w.user.username, type: 'generic', name: 'tool', version: '1.2.3' } } });
  assert.equal(files.data!.map((f) => f.name), ['tool.tar.gz', 'tool.sha256']);
});

test('who may publish: owner, org owner, packages writer; a reader, an outsider and anonymous get 401', async () => {
  for (const who of [w.orgOwner, w.writer]) await publishGeneric(app, who, w.org.name);
  for (const who of [w.reader, w.outsider]) {
    const res = await putGeneric(app, who.auth, w.org.name, fresh('p'), '1', 'a.txt', 'x');
    // The outsider cannot see the private organization at all.
    assert.is(res.status, who === w.outsider ? 404 : 401, who.username);
  }
  const anon = await putGeneric(app, undefined, w.org.name, fresh('p'), '1', 'a.txt', 'x');
  assert.is(anon.status, 401);
  assert.match(anon.headers.get('www-authenticate') ?? '', /Basic/);
  assert.is((await putGeneric(app, w.outsider.auth, w.user.username, fresh('p'), '1', 'a.txt', 'x')).status, 401, 'another user\'s packages');
  // A token without write:package.
  const readOnly = await app.token(w.user, ['read:package']);
  assert.is((await putGeneric(app, readOnly, w.user.username, fresh('p'), '1', 'a.txt', 'x')).status, 403);
});

test('a private owner\'s package: 404 to an outsider, 401 to anonymous, readable by a member', async () => {
  const { name } = await publishGeneric(app, w.writer, w.org.name, { body: 'secret' });
  const url = genericUrl(app, w.org.name, name, '1.0.0', 'file.bin');
  assert.is((await fetch(url, { headers: { Authorization: w.outsider.auth } })).status, 404);
  assert.is((await fetch(url)).status, 401);
  const ok = await fetch(url, { headers: { Authorization: w.reader.auth } });
  assert.is(ok.status, 200);
  assert.is(await ok.text(), 'secret');
  assert.is((await fetch(genericUrl(app, w.org.name, name, '1.0.0', 'nope.bin'), { headers: { Authorization: w.reader.auth } })).status, 404);
});

test('400 for a bad name, version or file name', async () => {
  for (const [name, version, file] of [['bad name', '1', 'a'], ['ok', ' 1', 'a'], ['ok', '1', 'bad|name'], ['ok', '1', 'a/b']]) {
    const res = await putGeneric(app, w.user.auth, w.user.username, name!, version!, file!, 'x');
    assert.is(res.status, 400, `${name} ${version} ${file}`);
  }
});

test('limits: a file over PACKAGES_LIMIT_SIZE_GENERIC and a version over the owner count are 403; nothing is kept', async () => {
  const name = fresh('big');
  const res = await putGeneric(app, w.user.auth, w.user.username, name, '1', 'big.bin', randomBytes(64 * 1024 + 1));
  assert.is(res.status, 403);
  assert.is((await fetch(genericUrl(app, w.user.username, name, '1', 'big.bin'), { headers: { Authorization: w.user.auth } })).status, 404);
  const u = await (await import('../../helpers/orgs.js')).actor(app);
  for (let i = 0; i < 5; i++) await publishGeneric(app, u, u.username, { version: `${i}` , name: 'many' });
  assert.is((await putGeneric(app, u.auth, u.username, 'many', '5', 'file.bin', 'x')).status, 403);
  // A further file of an existing version is no new version.
  assert.is((await putGeneric(app, u.auth, u.username, 'many', '4', 'other.bin', 'x')).status, 201);
});

test('delete a file, then the version; the same content is stored once', async () => {
  const body = `shared ${randomBytes(8).toString('hex')}`;
  const a = await publishGeneric(app, w.user, w.user.username, { body });
  await publishGeneric(app, w.orgOwner, w.org.name, { body });
  const blobs = (await app.services.deps.db.execute(`select count(*)::int as n from package_blobs where size = ${body.length}`)) as unknown;
  const n = Array.isArray(blobs) ? (blobs[0] as { n: number }).n : (blobs as { rows: { n: number }[] }).rows[0]!.n;
  assert.is(Number(n), 1);
  assert.is((await putGeneric(app, w.user.auth, w.user.username, a.name, a.version, 'second.txt', 'two')).status, 201);
  const del = (file?: string, auth = w.user.auth) => fetch(genericUrl(app, w.user.username, a.name, a.version, file), { method: 'DELETE', headers: { Authorization: auth } });
  assert.is((await del('file.bin', w.outsider.auth)).status, 401);
  assert.is((await del('file.bin')).status, 204);
  assert.is((await del('file.bin')).status, 404);
  assert.is((await del()).status, 204);
  assert.is((await del()).status, 404);
});

test('concurrent deletions of a version\'s files: the last one removes the version exactly once, the others leave it with its files', async () => {
  const db = app.services.deps.db;
  const versionOf = async (name: string, version: string) => (await db.select({ id: packageVersions.id }).from(packageVersions)
    .where(sql`${packageVersions.packageId} in (select id from packages where owner_id = ${w.user.id} and lower_name = ${name.toLowerCase()})
      and ${packageVersions.lowerVersion} = ${version.toLowerCase()}`))[0]?.id;
  const filesOf = async (versionId: number) => (await db.select({ name: packageFiles.name }).from(packageFiles).where(eq(packageFiles.versionId, versionId))).map((f) => f.name).sort();
  const names = Array.from({ length: 8 }, (_, i) => `part${i}.bin`);
  const withFiles = async () => {
    const a = await publishGeneric(app, w.user, w.user.username, { name: fresh('race'), file: names[0] });
    for (const f of names.slice(1)) assert.is((await putGeneric(app, w.user.auth, w.user.username, a.name, a.version, f, `content of ${f}`)).status, 201);
    return { ...a, id: (await versionOf(a.name, a.version))! };
  };
  const del = (a: { name: string; version: string }, file: string) =>
    fetch(genericUrl(app, w.user.username, a.name, a.version, file), { method: 'DELETE', headers: { Authorization: w.user.auth } }).then((r) => r.status);

  // All eight at once: every deletion is 204, the version and package are gone, one `deleted` event.
  for (let round = 0; round < 3; round++) {
    const a = await withFiles();
    assert.equal(await Promise.all(names.map((f) => del(a, f))), names.map(() => 204), `round ${round}`);
    assert.is(await versionOf(a.name, a.version), undefined, 'the version went with its last file');
    const deleted = await db.select({ id: events.id }).from(events)
      .where(and(eq(events.type, 'package'), eq(events.action, 'deleted'), sql`(${events.data}->>'versionId')::bigint = ${a.id}`));
    assert.is(deleted.length, 1, 'one deleted event for the version');
  }
  // Seven of eight at once: the version stays with the eighth file; the same file twice at once is one 204 and one 404.
  const b = await withFiles();
  const statuses = await Promise.all([...names.slice(0, 7).map((f) => del(b, f)), del(b, names[0]!)]);
  assert.equal(statuses.slice(1, 7), names.slice(1, 7).map(() => 204));
  assert.equal([statuses[0], statuses[7]].sort(), [204, 404], 'one of the two deletions of the same file');
  assert.equal(await filesOf(b.id), [names[7]], 'the version keeps its last file');
  const get = await fetch(genericUrl(app, w.user.username, b.name, b.version, names[7]), { headers: { Authorization: w.user.auth } });
  assert.is(get.status, 200);
  assert.is(await get.text(), `content of ${names[7]}`);
});

test('cleanup_packages: an owner\'s rule removes old versions; blobs no file holds go after an hour', async () => {
  const u = await (await import('../../helpers/orgs.js')).actor(app);
  for (const v of ['1', '2', '3', 'keep-me']) await publishGeneric(app, u, u.username, { name: 'rolling', version: v, body: `rolling ${v} ${u.username}` });
  const { packageCleanupRules, packageBlobs } = await import('../../../src/db/schema/index.js');
  const { eq } = await import('drizzle-orm');
  await app.services.deps.db.insert(packageCleanupRules).values({ ownerId: u.id, type: 'generic', keepCount: 1, keepPattern: 'keep-.*', removePattern: '.*' });
  const admin = await app.token(app.admin, ['all']);
  const run = () => fetch(`${app.url}/api/v1/admin/cron/cleanup_packages`, { method: 'POST', headers: { Authorization: admin } });
  assert.is((await run()).status, 204);
  const versions = await app.client(u.auth).GET('/packages/{owner}/{type}/{name}', { params: { path: { owner: u.username, type: 'generic', name: 'rolling' } } });
  // The newest (keep-me) is kept by the count and the pattern; 3 and 2 and 1 match the removal pattern.
  assert.equal(versions.data!.map((p) => p.version), ['keep-me']);
  const sha = (await import('node:crypto')).createHash('sha256').update(`rolling 1 ${u.username}`).digest('hex');
  const key = `${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`;
  assert.ok(await app.services.packages.store.stat(key), 'an unreferenced blob younger than an hour stays');
  await app.services.deps.db.update(packageBlobs).set({ createdAt: new Date(Date.now() - 2 * 3_600_000) }).where(eq(packageBlobs.sha256, sha));
  assert.is((await run()).status, 204);
  assert.is(await app.services.packages.store.stat(key), undefined);
  // The kept version's file is still there.
  assert.is((await fetch(genericUrl(app, u.username, 'rolling', 'keep-me', 'file.bin'))).status, 200);
});

test('cleanup_packages: a rule with only a count keeps that many newest versions and removes the rest (any age, any version)', async () => {
  const u = await (await import('../../helpers/orgs.js')).actor(app);
  for (const v of ['1', '2', '3', '4']) await publishGeneric(app, u, u.username, { name: 'counted', version: v, body: `counted ${v} ${u.username}` });
  const { packageCleanupRules } = await import('../../../src/db/schema/index.js');
  await app.services.deps.db.insert(packageCleanupRules).values({ ownerId: u.id, type: 'generic', keepCount: 2 });
  const admin = await app.token(app.admin, ['all']);
  assert.is((await fetch(`${app.url}/api/v1/admin/cron/cleanup_packages`, { method: 'POST', headers: { Authorization: admin } })).status, 204);
  const versions = await app.client(u.auth).GET('/packages/{owner}/{type}/{name}', { params: { path: { owner: u.username, type: 'generic', name: 'counted' } } });
  assert.equal(versions.data!.map((p) => p.version).sort(), ['3', '4']);
});

test.run();
