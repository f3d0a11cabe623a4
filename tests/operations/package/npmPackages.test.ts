// The npm registry (`/api/packages/{owner}/npm/`, not an operation of the REST API) driven by the real npm
// client: publish (scoped and unscoped), the package document, tarballs byte-identical, no republish, the
// integrity check, `npm install` from a clean cache, dist-tags, unpublish, and who may publish and read.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { fresh, type Actor } from '../../helpers/orgs.js';
import { packageWorld, type PackageWorld } from '../../helpers/packages.js';

const run = promisify(execFile);
let app: TestApp;
let w: PackageWorld;
const dir = mkdtempSync(join(tmpdir(), 'anvil-npm-'));

test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
});
test.after(async () => {
  await app.close();
});

const registry = (owner: string) => `${app.url}/api/packages/${owner}/npm/`;

/** npm with its own userconfig (registry of `owner`, the actor's token) and a fresh cache; answers stdout. */
async function npm(by: Actor | undefined, owner: string, cwd: string, args: string[]): Promise<string> {
  const reg = registry(owner);
  const rc = join(dir, fresh('npmrc'));
  writeFileSync(rc, [`registry=${reg}`, `@scope:registry=${reg}`, by ? `${reg.replace(/^http:/, '')}:_authToken=${by.auth.replace(/^token /, '')}` : ''].join('\n'));
  const { stdout } = await run('npm', [...args, '--userconfig', rc, '--cache', join(dir, fresh('cache')), '--no-audit', '--no-fund', '--no-update-notifier'], { cwd });
  return stdout;
}

/** Makes a package directory; answers its path. */
function project(name: string, version: string, extra: Record<string, unknown> = {}): string {
  const p = join(dir, fresh('pkg'));
  mkdirSync(p);
  writeFileSync(join(p, 'package.json'), JSON.stringify({ name, version, description: `${name} here`, main: 'index.js', license: 'MIT', ...extra }));
  writeFileSync(join(p, 'index.js'), `module.exports = ${JSON.stringify(`${name}@${version}`)};\n`);
  return p;
}

const failure = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (err) {
    return `${(err as { stderr?: string }).stderr ?? ''}${(err as Error).message}`;
  }
  assert.unreachable('npm should have failed');
  return '';
};

const doc = async (owner: string, name: string, auth?: string) =>
  fetch(`${registry(owner)}${encodeURIComponent(name).replace(/^%40/, '@')}`, { headers: auth ? { Authorization: auth } : {} });

test('npm publish (unscoped, scoped), the document, tarballs byte-identical, no republish; npm install from a clean cache', async () => {
  const owner = w.user.username;
  const plain = fresh('lib');
  const scoped = `@scope/${fresh('util')}`;
  const a = project(plain, '1.0.0');
  await npm(w.user, owner, a, ['publish']);
  await npm(w.user, owner, project(plain, '1.1.0'), ['publish']);
  const b = project(scoped, '2.0.0', { dependencies: { [plain]: '^1.0.0' } });
  await npm(w.user, owner, b, ['publish']);

  const res = await doc(owner, plain);
  assert.is(res.status, 200);
  const d = await res.json() as { name: string; 'dist-tags': Record<string, string>; versions: Record<string, { dist: { tarball: string; integrity: string; shasum: string }; description: string }> };
  assert.is(d.name, plain);
  assert.equal(d['dist-tags'], { latest: '1.1.0' });
  assert.equal(Object.keys(d.versions).sort(), ['1.0.0', '1.1.0']);
  assert.is(d.versions['1.0.0']!.description, `${plain} here`);

  // The tarball served is the one npm packs, byte for byte (its sha512 is the integrity).
  const packed = (await run('npm', ['pack', '--json', '--pack-destination', dir, '--cache', join(dir, fresh('cache'))], { cwd: a })).stdout;
  const bytes = readFileSync(join(dir, (JSON.parse(packed) as { filename: string }[])[0]!.filename));
  const tgz = await fetch(d.versions['1.0.0']!.dist.tarball);
  assert.is(tgz.status, 200);
  const served = Buffer.from(await tgz.arrayBuffer());
  assert.ok(served.equals(bytes), 'the tarball is byte-identical');
  assert.is(d.versions['1.0.0']!.dist.integrity, `sha512-${createHash('sha512').update(bytes).digest('base64')}`);
  assert.is(d.versions['1.0.0']!.dist.shasum, createHash('sha1').update(bytes).digest('hex'));

  const sd = await (await doc(owner, scoped)).json() as { name: string; versions: Record<string, { dist: { tarball: string } }> };
  assert.is(sd.name, scoped);
  assert.ok(sd.versions['2.0.0']!.dist.tarball.includes('/-/2.0.0/'), sd.versions['2.0.0']!.dist.tarball);

  // The same version again is refused, and the first one stays.
  const again = await failure(npm(w.user, owner, project(plain, '1.0.0', { description: 'other' }), ['publish']));
  assert.match(again, /409|E409|cannot publish over the previously published versions/, again);
  assert.ok(Buffer.from(await (await fetch(d.versions['1.0.0']!.dist.tarball)).arrayBuffer()).equals(bytes));

  // A consumer installs the scoped package and its dependency from a clean cache, anonymously (public owner).
  const consumer = join(dir, fresh('app'));
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '0.0.0', private: true }));
  await npm(undefined, owner, consumer, ['install', `${scoped}@2.0.0`]);
  const installed = JSON.parse(readFileSync(join(consumer, 'node_modules', ...scoped.split('/'), 'package.json'), 'utf8')) as { version: string };
  assert.is(installed.version, '2.0.0');
  assert.is(JSON.parse(readFileSync(join(consumer, 'node_modules', plain, 'package.json'), 'utf8')).version, '1.1.0');
  const lock = readFileSync(join(consumer, 'package-lock.json'), 'utf8');
  assert.ok(lock.includes(`/api/packages/${owner}/npm/`), 'resolved from anvil');
});

test('a tarball that does not match its integrity, a name not the path, a bad version: 400, nothing kept', async () => {
  const owner = w.user.username;
  const name = fresh('bad');
  const body = (over: { integrity?: string; name?: string; version?: string } = {}) => {
    const tarball = Buffer.from('not really a tarball');
    const version = over.version ?? '1.0.0';
    return JSON.stringify({
      _id: name, name: over.name ?? name, 'dist-tags': { latest: version },
      versions: { [version]: { name: over.name ?? name, version, dist: { integrity: over.integrity ?? `sha512-${createHash('sha512').update(tarball).digest('base64')}` } } },
      _attachments: { [`${name}-${version}.tgz`]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length } },
    });
  };
  const put = (b: string) => fetch(`${registry(owner)}${name}`, { method: 'PUT', headers: { Authorization: w.user.auth, 'Content-Type': 'application/json' }, body: b });
  assert.is((await put(body({ integrity: `sha512-${createHash('sha512').update('other').digest('base64')}` }))).status, 400);
  // Several hashes: the sha512 one is checked whatever comes first.
  assert.is((await put(body({ integrity: `sha1-${createHash('sha1').update('not really a tarball').digest('base64')} sha512-${createHash('sha512').update('other').digest('base64')}` }))).status, 400);
  assert.is((await put(body({ name: fresh('other') }))).status, 400);
  assert.is((await put(body({ version: 'one' }))).status, 400);
  assert.is((await doc(owner, name)).status, 404);
  assert.is((await put(body())).status, 201);
  assert.is((await put(body())).status, 409);
});

test('npm dist-tag add, ls, rm; install by tag; latest cannot be removed; deprecate; unpublish', async () => {
  const owner = w.user.username;
  const name = fresh('tagged');
  await npm(w.user, owner, project(name, '1.0.0'), ['publish']);
  await npm(w.user, owner, project(name, '2.0.0-beta.1'), ['publish', '--tag', 'beta']);
  const cwd = dir;
  assert.equal((await (await doc(owner, name)).json() as { 'dist-tags': unknown })['dist-tags'], { latest: '1.0.0', beta: '2.0.0-beta.1' });
  await npm(w.user, owner, cwd, ['dist-tag', 'add', `${name}@1.0.0`, 'stable']);
  const ls = await npm(w.user, owner, cwd, ['dist-tag', 'ls', name]);
  assert.match(ls, 'stable: 1.0.0');
  assert.match(ls, 'beta: 2.0.0-beta.1');
  // A tag names one version: moving it.
  await npm(w.user, owner, cwd, ['dist-tag', 'add', `${name}@2.0.0-beta.1`, 'stable']);
  assert.match(await npm(w.user, owner, cwd, ['dist-tag', 'ls', name]), 'stable: 2.0.0-beta.1');
  await npm(w.user, owner, cwd, ['dist-tag', 'rm', name, 'beta']);
  assert.equal((await (await doc(owner, name)).json() as { 'dist-tags': unknown })['dist-tags'], { latest: '1.0.0', stable: '2.0.0-beta.1' });
  const tags = `${registry(owner)}-/package/${name}/dist-tags`;
  assert.is((await fetch(`${tags}/latest`, { method: 'DELETE', headers: { Authorization: w.user.auth } })).status, 400);
  assert.is((await fetch(`${tags}/x`, { method: 'PUT', headers: { Authorization: w.user.auth, 'Content-Type': 'application/json' }, body: '"9.9.9"' })).status, 404);
  assert.is((await fetch(`${tags}/x`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '"1.0.0"' })).status, 401);

  const consumer = join(dir, fresh('app'));
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '0.0.0', private: true }));
  await npm(undefined, owner, consumer, ['install', `${name}@stable`]);
  assert.is(JSON.parse(readFileSync(join(consumer, 'node_modules', name, 'package.json'), 'utf8')).version, '2.0.0-beta.1');

  // npm deprecate marks the versions meant; "" takes it back.
  await npm(w.user, owner, cwd, ['deprecate', `${name}@1.0.0`, 'use 2 instead']);
  let vs = (await (await doc(owner, name)).json() as { versions: Record<string, { deprecated?: string }> }).versions;
  assert.is(vs['1.0.0']!.deprecated, 'use 2 instead');
  assert.is(vs['2.0.0-beta.1']!.deprecated, undefined);
  await npm(w.user, owner, cwd, ['deprecate', `${name}@1.0.0`, '']);
  vs = (await (await doc(owner, name)).json() as { versions: Record<string, { deprecated?: string }> }).versions;
  assert.is(vs['1.0.0']!.deprecated, undefined);

  // npm unpublish of one version, then of the whole package.
  await npm(w.user, owner, cwd, ['unpublish', `${name}@2.0.0-beta.1`]);
  const after = await (await doc(owner, name)).json() as { versions: Record<string, unknown>; 'dist-tags': unknown };
  assert.equal(Object.keys(after.versions), ['1.0.0']);
  assert.equal(after['dist-tags'], { latest: '1.0.0' });
  await npm(w.user, owner, cwd, ['unpublish', name, '--force']);
  assert.is((await doc(owner, name)).status, 404);
});

test('a private organization: writers publish, readers read, others get 401 or 404', async () => {
  const owner = w.org.name;
  const name = `@scope/${fresh('inner')}`;
  await npm(w.writer, owner, project(name, '1.0.0'), ['publish']);
  assert.is((await doc(owner, name, w.reader.auth)).status, 200);
  assert.is((await doc(owner, name)).status, 401);
  assert.is((await doc(owner, name, w.outsider.auth)).status, 404);
  assert.match(await failure(npm(w.reader, owner, project(name, '1.0.1'), ['publish'])), /401|E401|403|E403/);
  assert.is((await doc(owner, name, w.orgOwner.auth)).status, 200);
});

test('npm search: the owner\'s packages whose name has the text, each at its newest version; paged; hidden where the owner is', async () => {
  const owner = w.user.username;
  const stem = fresh('findme');
  await npm(w.user, owner, project(`${stem}-one`, '1.0.0', { keywords: ['alpha'], description: 'the first' }), ['publish']);
  await npm(w.user, owner, project(`${stem}-one`, '1.2.0', { keywords: ['alpha'], description: 'the first, newer' }), ['publish']);
  await npm(w.user, owner, project(`@scope/${stem}-two`, '0.1.0'), ['publish']);
  await npm(w.user, owner, project(fresh('other'), '1.0.0'), ['publish']);

  const found = JSON.parse(await npm(undefined, owner, dir, ['search', '--json', stem])) as { name: string; version: string; description: string; keywords?: string[] }[];
  assert.equal(found.map((p) => `${p.name}@${p.version}`).sort(), [`${stem}-one@1.2.0`, `@scope/${stem}-two@0.1.0`].sort());
  assert.is(found.find((p) => p.name === `${stem}-one`)!.description, 'the first, newer');
  assert.equal(found.find((p) => p.name === `${stem}-one`)!.keywords, ['alpha']);

  const search = (owner_: string, q: string, auth?: string) => fetch(`${registry(owner_)}-/v1/search?${q}`, { headers: auth ? { Authorization: auth } : {} });
  const page = await (await search(owner, `text=${stem}&size=1&from=1`)).json() as { objects: { package: { name: string; scope: string; links: { npm: string } } }[]; total: number };
  assert.is(page.total, 2);
  assert.is(page.objects.length, 1);
  assert.is(page.objects[0]!.package.name, `${stem}-one`);
  assert.is(page.objects[0]!.package.scope, 'unscoped');
  assert.is((await (await search(owner, `text=${stem}&size=1`)).json() as { objects: { package: { scope: string } }[] }).objects[0]!.package.scope, 'scope');
  assert.is((await search(owner, 'text=x&size=-1')).status, 400);
  // A private organization's packages: members search, others do not.
  assert.is((await search(w.org.name, 'text=a', w.reader.auth)).status, 200);
  assert.is((await search(w.org.name, 'text=a', w.outsider.auth)).status, 404);
  assert.is((await search(w.org.name, 'text=a')).status, 401);
});

test.run();
