// The PyPI registry (`/api/packages/{owner}/pypi`, not an operation of the REST API) driven by the real
// twine and pip: an sdist and a wheel uploaded into one version with their metadata, no re-upload, the
// simple index (PEP 503 HTML, PEP 691 JSON) with hashes, `pip download` from a clean cache byte-identical,
// any spelling of the name; HTTP for the rest: digests, names and versions checked, who may upload and read.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { fresh, type Actor } from '../../helpers/orgs.js';
import { packageWorld, type PackageWorld } from '../../helpers/packages.js';
import { buildDistributions, fileOf, uploadAsTwine } from '../../helpers/pypi.js';

const run = promisify(execFile);
let app: TestApp;
let w: PackageWorld;

test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
});
test.after(async () => {
  await app.close();
});

const registry = (owner: string) => `${app.url}/api/packages/${owner}/pypi`;
const pyEnv = { ...process.env, PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring', PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' };

async function twine(by: Actor, owner: string, files: string[]): Promise<string> {
  const { stdout } = await run('twine', ['upload', '--non-interactive', '--disable-progress-bar', '--repository-url', registry(owner), '-u', by.username, '-p', by.password, ...files], { env: pyEnv });
  return stdout;
}

async function pipDownload(owner: string, requirement: string): Promise<string> {
  const dest = mkdtempSync(join(tmpdir(), 'anvil-pip-'));
  await run('pip', ['download', '--no-deps', '--no-cache-dir', '--only-binary', ':all:', '--index-url', `${registry(owner)}/simple`, '-d', dest, requirement], { env: pyEnv });
  return dest;
}

test('twine uploads an sdist and a wheel; the simple index; pip downloads the wheel byte-identical; no re-upload', async () => {
  const owner = w.user.username;
  const name = fresh('Py_Lib');
  const d1 = await buildDistributions(name, '1.0.0');
  const d2 = await buildDistributions(name, '1.1.0', '>=3.8,<4');
  await twine(w.user, owner, [d1.sdist]);
  await twine(w.user, owner, [d1.wheel, d2.wheel]);

  // A file uploaded once is refused (409), whatever else the version takes.
  const again = await run('twine', ['upload', '--non-interactive', '--disable-progress-bar', '--repository-url', registry(owner), '-u', w.user.username, '-p', w.user.password, d1.wheel], { env: pyEnv })
    .then(() => 'accepted', (err: { stderr?: string; stdout?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}`);
  assert.match(again, /409|Conflict/);

  const normalized = name.toLowerCase().replace(/[-_.]+/g, '-');
  const html = await fetch(`${registry(owner)}/simple/${normalized}/`);
  assert.is(html.status, 200);
  assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
  const page = await html.text();
  for (const f of [d1.sdist, d1.wheel, d2.wheel].map(fileOf)) {
    const sha = (await import('node:crypto')).createHash('sha256').update(f.bytes).digest('hex');
    assert.ok(page.includes(`>${f.name}</a>`), f.name);
    assert.ok(page.includes(`#sha256=${sha}"`), `${f.name} hash`);
  }
  assert.ok(page.includes('data-requires-python="&#62;=3.8,&#60;4"'), page);

  const json = await fetch(`${registry(owner)}/simple/${name}`, { headers: { Accept: 'application/vnd.pypi.simple.v1+json' } });
  assert.is(json.headers.get('content-type'), 'application/vnd.pypi.simple.v1+json');
  const doc = await json.json() as { meta: { 'api-version': string }; name: string; files: { filename: string; url: string; hashes: { sha256: string }; 'requires-python'?: string }[] };
  assert.is(doc.meta['api-version'], '1.0');
  assert.is(doc.name, normalized);
  assert.equal(doc.files.map((f) => f.filename).sort(), [d1.sdist, d1.wheel, d2.wheel].map((p) => p.split('/').pop()!).sort());
  assert.is(doc.files.find((f) => f.filename.includes('1.1.0'))!['requires-python'], '>=3.8,<4');

  // pip reads the index anonymously (a public owner), checks the hashes and fetches the newest wheel, or the one asked for.
  const newest = await pipDownload(owner, normalized);
  assert.ok(readFileSync(join(newest, fileOf(d2.wheel).name)).equals(fileOf(d2.wheel).bytes));
  const pinned = await pipDownload(owner, `${name.toUpperCase()}==1.0.0`);
  assert.ok(readFileSync(join(pinned, fileOf(d1.wheel).name)).equals(fileOf(d1.wheel).bytes));

  // The metadata twine sent is kept; both files are the version's.
  const kept = name.replace(/[-_.]+/g, '-');
  const files = await fetch(`${app.url}/api/v1/packages/${owner}/pypi/${kept}/1.0.0/files`, { headers: { Authorization: w.user.auth } });
  assert.is(files.status, 200);
  assert.equal(((await files.json()) as { name: string }[]).map((f) => f.name).sort(), [fileOf(d1.sdist).name, fileOf(d1.wheel).name].sort());
});

test('uploads are checked: digests, name, version, file name, the form itself', async () => {
  const owner = w.user.username;
  const name = fresh('checked');
  const { wheel } = await buildDistributions(name, '2.0.0');
  const f = fileOf(wheel);
  const fields = { name, version: '2.0.0' };
  const cases: [Record<string, string>, { name: string; bytes: Buffer }, string][] = [
    [{ ...fields, sha256_digest: '0'.repeat(64) }, f, 'hash mismatch'],
    [{ ...fields, md5_digest: '0'.repeat(32) }, f, 'hash mismatch'],
    [{ ...fields, name: '-bad-' }, f, 'invalid name or version'],
    [{ ...fields, version: 'one.two' }, f, 'invalid name or version'],
    [{ ...fields, ':action': 'remove_pkg' }, f, 'unsupported action'],
    [fields, { ...f, name: 'bad name;.whl' }, 'invalid file name'],
  ];
  for (const [form, file, message] of cases) {
    const res = await uploadAsTwine(app, w.user.auth, owner, file, form);
    assert.is(res.status, 400, JSON.stringify(form));
    assert.match(await res.text(), message);
  }
  const notForm = await fetch(registry(owner), { method: 'POST', headers: { Authorization: w.user.auth, 'Content-Type': 'application/json' }, body: '{}' });
  assert.is(notForm.status, 400);
  const noFile = new FormData();
  noFile.append('name', name);
  assert.is((await fetch(registry(owner), { method: 'POST', headers: { Authorization: w.user.auth }, body: noFile })).status, 400);
  // Nothing was kept by the refusals.
  assert.is((await fetch(`${registry(owner)}/simple/${name}`)).status, 404);
  assert.is((await uploadAsTwine(app, w.user.auth, owner, f, fields)).status, 201);
  assert.is((await uploadAsTwine(app, w.user.auth, owner, f, fields)).status, 409);
  const got = await fetch(`${registry(owner)}/files/${name}/2.0.0/${f.name}`);
  assert.is(got.status, 200);
  assert.ok(Buffer.from(await got.arrayBuffer()).equals(f.bytes));
  assert.is((await fetch(`${registry(owner)}/files/${name}/2.0.0/other.whl`)).status, 404);
  assert.is((await fetch(`${registry(owner)}/files/${name}/9.9.9/${f.name}`)).status, 404);
});

test('who may upload and read: owners and package writers upload; readers and anonymous callers do not; a private owner is hidden', async () => {
  const owner = w.org.name;
  const name = fresh('team');
  const { wheel } = await buildDistributions(name, '1.0.0');
  const f = fileOf(wheel);
  const fields = { name, version: '1.0.0' };
  const anon = await uploadAsTwine(app, undefined, owner, f, fields);
  assert.is(anon.status, 401);
  assert.match(anon.headers.get('www-authenticate') ?? '', /^Basic/);
  assert.is((await uploadAsTwine(app, w.reader.auth, owner, f, fields)).status, 401);
  assert.is((await uploadAsTwine(app, w.outsider.auth, owner, f, fields)).status, 404);
  assert.is((await uploadAsTwine(app, w.writer.auth, owner, f, fields)).status, 201);
  assert.is((await fetch(`${registry(owner)}/simple/${name}`, { headers: { Authorization: w.reader.auth } })).status, 200);
  assert.is((await fetch(`${registry(owner)}/simple/${name}`, { headers: { Authorization: w.outsider.auth } })).status, 404);
  assert.is((await fetch(`${registry(owner)}/simple/${name}`)).status, 401);
  assert.is((await fetch(`${registry(owner)}/files/${name}/1.0.0/${f.name}`, { headers: { Authorization: w.outsider.auth } })).status, 404);
});

test.run();
