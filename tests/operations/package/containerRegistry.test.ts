// The container registry (`/v2/`, OCI distribution; not an operation of the REST API): the real skopeo
// pushes an OCI layout into anvil (token flow, chunked uploads) and pulls it back byte-identical by tag
// and by digest, lists and deletes tags; HTTP checks the rest: the challenge and tokens, monolithic and
// chunked uploads, cross-repository mount, indexes, tag paging, deletes, every error and who may do what.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { makeImage, ociIndexType, ociLayout, pushBlob, pushImage, putManifest, registryAuth, sha256 } from '../../helpers/containers.js';
import { fresh } from '../../helpers/orgs.js';
import { packageWorld, type PackageWorld } from '../../helpers/packages.js';

const run = promisify(execFile);
let app: TestApp;
let w: PackageWorld;
let host: string;

test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
  host = app.url.replace(/^http:\/\//, '');
});
test.after(async () => {
  await app.close();
});

const skopeo = async (args: string[]) => (await run('skopeo', ['--insecure-policy', ...args], { env: { ...process.env, REGISTRY_AUTH_FILE: '/nonexistent/auth.json' } })).stdout;
const creds = (who: { username: string; password: string }) => `${who.username}:${who.password}`;
const errorCode = async (res: Response) => ((await res.json()) as { errors: { code: string }[] }).errors[0]!.code;

test('skopeo copies an OCI layout into anvil and back, byte-identical by tag and by digest; lists tags; deletes', async () => {
  const owner = w.user.username;
  const name = `${owner}/${fresh('img')}/app`;
  const img = makeImage(name);
  const src = ociLayout(img, 'v1');
  await skopeo(['copy', '--dest-tls-verify=false', '--dest-creds', creds(w.user), `oci:${src}:v1`, `docker://${host}/${name}:v1`]);
  await skopeo(['copy', '--dest-tls-verify=false', '--dest-creds', creds(w.user), `oci:${src}:v1`, `docker://${host}/${name}:latest`]);

  // Back by tag and by digest, anonymously (a public owner), into fresh layouts: the same bytes.
  for (const ref of [`${name}:v1`, `${name}@${img.digest}`]) {
    const dest = ociLayout(makeImage('unused'), 'unused');
    await skopeo(['copy', '--src-tls-verify=false', `docker://${host}/${ref}`, `oci:${dest}:pulled`]);
    const index = JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8')) as { manifests: { digest: string; annotations?: Record<string, string> }[] };
    const pulled = index.manifests.find((m) => m.annotations?.['org.opencontainers.image.ref.name'] === 'pulled')!;
    assert.is(pulled.digest, img.digest);
    for (const b of [img.layer, img.config, img.manifest]) assert.ok(readFileSync(join(dest, 'blobs', 'sha256', sha256(b).slice(7))).equals(b));
  }

  const raw = await skopeo(['inspect', '--raw', '--tls-verify=false', `docker://${host}/${name}:v1`]);
  assert.is(raw, img.manifest.toString());
  const tags = JSON.parse(await skopeo(['list-tags', '--tls-verify=false', '--creds', creds(w.user), `docker://${host}/${name}`])) as { Tags: string[] };
  assert.equal(tags.Tags, ['latest', 'v1']);

  // The image shows as a package of its owner: its tags are versions, the internal `_upload` is not.
  const listed = await fetch(`${app.url}/api/v1/packages/${owner}?type=container`, { headers: { Authorization: w.user.auth } });
  assert.equal(((await listed.json()) as { name: string; version: string }[]).map((p) => `${p.name}@${p.version}`).sort(), [`${name.slice(owner.length + 1)}@latest`, `${name.slice(owner.length + 1)}@v1`]);

  // skopeo delete removes the manifest by digest: every tag naming it goes.
  await skopeo(['delete', '--tls-verify=false', '--creds', creds(w.user), `docker://${host}/${name}:v1`]);
  const bearer = await registryAuth(app, w.user.basic);
  assert.is((await fetch(`${app.url}/v2/${name}/manifests/v1`, { headers: { Authorization: bearer } })).status, 404);
  assert.is((await fetch(`${app.url}/v2/${name}/manifests/latest`, { headers: { Authorization: bearer } })).status, 404);
});

test('the challenge, the token endpoint and credentials', async () => {
  const root = await fetch(`${app.url}/v2/`);
  assert.is(root.status, 401);
  assert.is(root.headers.get('www-authenticate'), `Bearer realm="${app.url}/v2/token",service="container_registry",scope="*"`);
  assert.is(root.headers.get('docker-distribution-api-version'), 'registry/2.0');
  assert.is(await errorCode(root), 'UNAUTHORIZED');
  assert.is((await fetch(`${app.url}/v2/token`, { headers: { Authorization: `Basic ${Buffer.from(`${w.user.username}:wrong`).toString('base64')}` } })).status, 401);
  for (const auth of [await registryAuth(app, w.user.basic), await registryAuth(app), w.user.basic, w.user.auth]) {
    assert.is((await fetch(`${app.url}/v2/`, { headers: { Authorization: auth } })).status, 200, auth);
  }
  const forged = (await registryAuth(app, w.user.basic)).slice(0, -3) + 'xyz';
  assert.is((await fetch(`${app.url}/v2/`, { headers: { Authorization: forged } })).status, 401);
  // Without any credentials even a public image is 401 (clients then fetch the anonymous token).
  assert.is((await fetch(`${app.url}/v2/${w.user.username}/nothing/tags/list`)).status, 401);
});

test('monolithic and chunked uploads, upload status, digests checked, cancel', async () => {
  const auth = await registryAuth(app, w.user.basic);
  const name = `${w.user.username}/${fresh('up')}`;
  const bytes = Buffer.from(`blob of ${name}`);
  assert.is(await errorCode(await pushBlob(app, auth, name, bytes, sha256('something else'))), 'DIGEST_INVALID');
  assert.is((await fetch(`${app.url}/v2/${name}/blobs/${sha256(bytes)}`, { method: 'HEAD', headers: { Authorization: auth } })).status, 404);
  const whole = await pushBlob(app, auth, name, bytes);
  assert.is(whole.status, 201);
  assert.is(whole.headers.get('docker-content-digest'), sha256(bytes));
  const head = await fetch(`${app.url}/v2/${name}/blobs/${sha256(bytes)}`, { method: 'HEAD', headers: { Authorization: auth } });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(bytes.length));
  const got = await fetch(`${app.url}/v2/${name}/blobs/${sha256(bytes)}`, { headers: { Authorization: auth } });
  assert.ok(Buffer.from(await got.arrayBuffer()).equals(bytes));

  // Chunked: POST, PATCH twice (Content-Range checked), status, PUT with the digest.
  const big = Buffer.alloc(300_000, 7);
  const started = await fetch(`${app.url}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: { Authorization: auth } });
  assert.is(started.status, 202);
  const location = started.headers.get('location')!;
  assert.ok(location.startsWith(`/v2/${name}/blobs/uploads/`));
  const one = await fetch(`${app.url}${location}`, { method: 'PATCH', headers: { Authorization: auth, 'Content-Range': `0-${199_999}` }, body: new Uint8Array(big.subarray(0, 200_000)) });
  assert.is(one.status, 202);
  assert.is(one.headers.get('range'), '0-199999');
  const wrong = await fetch(`${app.url}${location}`, { method: 'PATCH', headers: { Authorization: auth, 'Content-Range': '5-10' }, body: 'xxxxxx' });
  assert.is(wrong.status, 416);
  assert.is(await errorCode(wrong), 'BLOB_UPLOAD_INVALID');
  const status = await fetch(`${app.url}${location}`, { headers: { Authorization: auth } });
  assert.is(status.status, 204);
  assert.is(status.headers.get('range'), '0-199999');
  assert.is((await fetch(`${app.url}${location}`, { method: 'PATCH', headers: { Authorization: auth }, body: new Uint8Array(big.subarray(200_000)) })).status, 202);
  const done = await fetch(`${app.url}${location}?digest=${sha256(big)}`, { method: 'PUT', headers: { Authorization: auth } });
  assert.is(done.status, 201);
  assert.is(done.headers.get('location'), `/v2/${name}/blobs/${sha256(big)}`);
  assert.is((await fetch(`${app.url}${location}`, { headers: { Authorization: auth } })).status, 404);
  const back = await fetch(`${app.url}/v2/${name}/blobs/${sha256(big)}`, { headers: { Authorization: auth } });
  assert.ok(Buffer.from(await back.arrayBuffer()).equals(big));

  // A finished upload whose bytes are not the digest is refused and gone.
  const bad = (await fetch(`${app.url}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: { Authorization: auth } })).headers.get('location')!;
  const refused = await fetch(`${app.url}${bad}?digest=${sha256('other')}`, { method: 'PUT', headers: { Authorization: auth }, body: 'these bytes' });
  assert.is(refused.status, 400);
  assert.is(await errorCode(refused), 'DIGEST_INVALID');
  assert.is((await fetch(`${app.url}/v2/${name}/blobs/${sha256('these bytes')}`, { method: 'HEAD', headers: { Authorization: auth } })).status, 404);

  // Cancel; an unknown upload; an upload of another image.
  const gone = (await fetch(`${app.url}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: { Authorization: auth } })).headers.get('location')!;
  assert.is((await fetch(`${app.url}/v2/${w.user.username}/other/blobs/uploads/${gone.split('/').pop()}`, { headers: { Authorization: auth } })).status, 404);
  assert.is((await fetch(`${app.url}${gone}`, { method: 'DELETE', headers: { Authorization: auth } })).status, 204);
  const unknown = await fetch(`${app.url}${gone}`, { headers: { Authorization: auth } });
  assert.is(unknown.status, 404);
  assert.is(await errorCode(unknown), 'BLOB_UPLOAD_UNKNOWN');

  // Bad names and digests.
  assert.is(await errorCode(await fetch(`${app.url}/v2/${w.user.username}/Upper/blobs/uploads/`, { method: 'POST', headers: { Authorization: auth } })), 'NAME_INVALID');
  assert.is(await errorCode(await fetch(`${app.url}/v2/${name}/blobs/md5:abc`, { headers: { Authorization: auth } })), 'DIGEST_INVALID');

  // Deleting a pushed blob.
  assert.is((await fetch(`${app.url}/v2/${name}/blobs/${sha256(bytes)}`, { method: 'DELETE', headers: { Authorization: auth } })).status, 202);
  assert.is((await fetch(`${app.url}/v2/${name}/blobs/${sha256(bytes)}`, { method: 'HEAD', headers: { Authorization: auth } })).status, 404);
  assert.is(await errorCode(await fetch(`${app.url}/v2/${name}/blobs/${sha256(bytes)}`, { method: 'DELETE', headers: { Authorization: auth } })), 'BLOB_UNKNOWN');
});

test('cleanup_packages removes uploads started and never finished once untouched for a day (Gitea\'s OLDER_THAN), bytes and description; one in progress stays', async () => {
  const auth = await registryAuth(app, w.user.basic);
  const name = `${w.user.username}/${fresh('abandoned')}`;
  const start = async () => {
    const location = (await fetch(`${app.url}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: { Authorization: auth } })).headers.get('location')!;
    assert.is((await fetch(`${app.url}${location}`, { method: 'PATCH', headers: { Authorization: auth }, body: 'some bytes' })).status, 202);
    return location;
  };
  const [old, fresh1] = [await start(), await start()];
  const dir = join(app.config.dataDir, 'tmp', 'packages', 'container-uploads');
  const oldId = old.split('/').pop()!;
  const dayAgo = new Date(Date.now() - 25 * 3_600_000);
  for (const f of [oldId, `${oldId}.json`]) utimesSync(join(dir, f), dayAgo, dayAgo);
  const admin = await app.token(app.admin, ['all']);
  assert.is((await fetch(`${app.url}/api/v1/admin/cron/cleanup_packages`, { method: 'POST', headers: { Authorization: admin } })).status, 204);
  assert.not.ok(readdirSync(dir).some((f) => f.startsWith(oldId)), 'the abandoned upload\'s files are gone');
  const gone = await fetch(`${app.url}${old}`, { headers: { Authorization: auth } });
  assert.is(gone.status, 404);
  assert.is(await errorCode(gone), 'BLOB_UPLOAD_UNKNOWN');
  // The recent one is untouched and can still be finished.
  const status = await fetch(`${app.url}${fresh1}`, { headers: { Authorization: auth } });
  assert.is(status.status, 204);
  assert.is(status.headers.get('range'), '0-9');
  assert.is((await fetch(`${app.url}${fresh1}?digest=${sha256('some bytes')}`, { method: 'PUT', headers: { Authorization: auth } })).status, 201);
  // Another sweep at once finds nothing more to do.
  assert.is(await app.services.containers.removeAbandonedUploads(), 0);
});

test('GET /v2/_catalog: not implemented by Gitea 1.26, so 404 NAME_UNKNOWN as any route it does not have (with or without n/last)', async () => {
  const auth = await registryAuth(app, w.user.basic);
  for (const q of ['', '?n=10', '?n=1&last=a']) {
    const res = await fetch(`${app.url}/v2/_catalog${q}`, { headers: { Authorization: auth } });
    assert.is(res.status, 404, q);
    assert.is(await errorCode(res), 'NAME_UNKNOWN');
    assert.is(res.headers.get('link'), null);
  }
});

test('cross-repository mount: from an image the caller may read; otherwise an upload starts', async () => {
  const auth = await registryAuth(app, w.user.basic);
  const from = `${w.user.username}/${fresh('src')}`;
  const to = `${w.user.username}/${fresh('dst')}`;
  const bytes = Buffer.from(`mounted ${from}`);
  assert.is((await pushBlob(app, auth, from, bytes)).status, 201);
  const mounted = await fetch(`${app.url}/v2/${to}/blobs/uploads/?mount=${sha256(bytes)}&from=${from}`, { method: 'POST', headers: { Authorization: auth } });
  assert.is(mounted.status, 201);
  assert.is(mounted.headers.get('location'), `/v2/${to}/blobs/${sha256(bytes)}`);
  assert.is((await fetch(`${app.url}/v2/${to}/blobs/${sha256(bytes)}`, { method: 'HEAD', headers: { Authorization: auth } })).status, 200);

  // The private organization's blob is not the outsider's to mount: an ordinary upload starts (202).
  const orgAuth = await registryAuth(app, w.orgOwner.basic);
  const secret = Buffer.from(`secret ${fresh('s')}`);
  assert.is((await pushBlob(app, orgAuth, `${w.org.name}/private`, secret)).status, 201);
  const outsider = await registryAuth(app, w.outsider.basic);
  const own = `${w.outsider.username}/${fresh('mine')}`;
  const tried = await fetch(`${app.url}/v2/${own}/blobs/uploads/?mount=${sha256(secret)}&from=${w.org.name}/private`, { method: 'POST', headers: { Authorization: outsider } });
  assert.is(tried.status, 202);
  assert.is((await fetch(`${app.url}/v2/${own}/blobs/${sha256(secret)}`, { method: 'HEAD', headers: { Authorization: outsider } })).status, 404);
});

test('manifests and indexes by tag and digest; blobs and manifests they name must exist; tags paged; deletes', async () => {
  const auth = await registryAuth(app, w.user.basic);
  const name = `${w.user.username}/${fresh('multi')}`;
  const amd = makeImage(`${name} amd64`);
  const arm = makeImage(`${name} arm64`);

  const missing = await putManifest(app, auth, name, 'v1', amd.manifest);
  assert.is(missing.status, 400);
  assert.is(await errorCode(missing), 'MANIFEST_BLOB_UNKNOWN');
  assert.is(await errorCode(await putManifest(app, auth, name, 'v1', Buffer.from('{not json'))), 'MANIFEST_INVALID');
  assert.is(await errorCode(await putManifest(app, auth, name, 'bad:tag', amd.manifest)), 'TAG_INVALID');

  await pushImage(app, auth, name, amd, amd.digest);
  await pushImage(app, auth, name, arm, arm.digest);
  assert.is(await errorCode(await putManifest(app, auth, name, amd.digest, arm.manifest)), 'DIGEST_INVALID');

  const index = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: ociIndexType, manifests: [
    { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: amd.digest, size: amd.manifest.length, platform: { architecture: 'amd64', os: 'linux' } },
    { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: arm.digest, size: arm.manifest.length, platform: { architecture: 'arm64', os: 'linux' } },
  ] }));
  const unknownChild = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: ociIndexType, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: sha256('nope'), size: 4 }] }));
  assert.is(await errorCode(await putManifest(app, auth, name, 'v1', unknownChild, ociIndexType)), 'MANIFEST_UNKNOWN');
  const put = await putManifest(app, auth, name, 'v1', index, ociIndexType);
  assert.is(put.status, 201);
  assert.is(put.headers.get('docker-content-digest'), sha256(index));

  for (const ref of ['v1', sha256(index)]) {
    const got = await fetch(`${app.url}/v2/${name}/manifests/${ref}`, { headers: { Authorization: auth } });
    assert.is(got.status, 200);
    assert.is(got.headers.get('content-type'), ociIndexType);
    assert.is(got.headers.get('docker-content-digest'), sha256(index));
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(index));
  }
  const child = await fetch(`${app.url}/v2/${name}/manifests/${arm.digest}`, { method: 'HEAD', headers: { Authorization: auth } });
  assert.is(child.status, 200);
  assert.is(child.headers.get('content-length'), String(arm.manifest.length));
  const none = await fetch(`${app.url}/v2/${name}/manifests/v9`, { headers: { Authorization: auth } });
  assert.is(none.status, 404);
  assert.is(await errorCode(none), 'MANIFEST_UNKNOWN');

  // A tag moves when pushed again; tags are listed in order, paged with n and last.
  assert.is((await putManifest(app, auth, name, 'v2', amd.manifest)).status, 201);
  assert.is((await putManifest(app, auth, name, 'a0', amd.manifest)).status, 201);
  assert.is((await putManifest(app, auth, name, 'v2', arm.manifest)).status, 201);
  assert.is((await fetch(`${app.url}/v2/${name}/manifests/v2`, { method: 'HEAD', headers: { Authorization: auth } })).headers.get('docker-content-digest'), arm.digest);
  const all = await fetch(`${app.url}/v2/${name}/tags/list`, { headers: { Authorization: auth } });
  assert.equal(await all.json(), { name, tags: ['a0', 'v1', 'v2'] });
  const page = await fetch(`${app.url}/v2/${name}/tags/list?n=2`, { headers: { Authorization: auth } });
  assert.equal(((await page.json()) as { tags: string[] }).tags, ['a0', 'v1']);
  assert.is(page.headers.get('link'), `</v2/${name}/tags/list?n=2&last=v1>; rel="next"`);
  assert.equal(((await (await fetch(`${app.url}/v2/${name}/tags/list?n=2&last=v1`, { headers: { Authorization: auth } })).json()) as { tags: string[] }).tags, ['v2']);
  assert.is(await errorCode(await fetch(`${app.url}/v2/${w.user.username}/${fresh('none')}/tags/list`, { headers: { Authorization: auth } })), 'NAME_UNKNOWN');

  // Deleting a tag, then a manifest by digest (every tag naming it).
  assert.is((await fetch(`${app.url}/v2/${name}/manifests/v1`, { method: 'DELETE', headers: { Authorization: auth } })).status, 202);
  assert.is((await fetch(`${app.url}/v2/${name}/manifests/v1`, { headers: { Authorization: auth } })).status, 404);
  assert.is((await fetch(`${app.url}/v2/${name}/manifests/${arm.digest}`, { method: 'DELETE', headers: { Authorization: auth } })).status, 202);
  assert.equal(((await (await fetch(`${app.url}/v2/${name}/tags/list`, { headers: { Authorization: auth } })).json()) as { tags: string[] }).tags, ['a0']);
  assert.is(await errorCode(await fetch(`${app.url}/v2/${name}/manifests/v1`, { method: 'DELETE', headers: { Authorization: auth } })), 'MANIFEST_UNKNOWN');
});

test('who may push and pull: owners and package writers push; readers pull only; a private owner is hidden', async () => {
  const image = `${w.org.name}/${fresh('team')}`;
  const img = makeImage(image);
  await pushImage(app, await registryAuth(app, w.writer.basic), image, img, 'v1');
  const reader = await registryAuth(app, w.reader.basic);
  assert.is((await fetch(`${app.url}/v2/${image}/manifests/v1`, { headers: { Authorization: reader } })).status, 200);
  const denied = await pushBlob(app, reader, image, Buffer.from('reader blob'));
  assert.is(denied.status, 403);
  assert.is(await errorCode(denied), 'DENIED');
  assert.is((await fetch(`${app.url}/v2/${image}/manifests/v1`, { method: 'DELETE', headers: { Authorization: reader } })).status, 403);

  const outsider = await fetch(`${app.url}/v2/${image}/manifests/v1`, { headers: { Authorization: await registryAuth(app, w.outsider.basic) } });
  assert.is(outsider.status, 404);
  assert.is(await errorCode(outsider), 'NAME_UNKNOWN');
  const anon = await fetch(`${app.url}/v2/${image}/manifests/v1`, { headers: { Authorization: await registryAuth(app) } });
  assert.is(anon.status, 401);
  assert.ok(anon.headers.get('www-authenticate')?.startsWith('Bearer realm='));
  // The anonymous token pulls from a public owner, but pushes nowhere.
  const pub = `${w.user.username}/${fresh('pub')}`;
  await pushImage(app, await registryAuth(app, w.user.basic), pub, makeImage(pub), 'v1');
  assert.is((await fetch(`${app.url}/v2/${pub}/manifests/v1`, { headers: { Authorization: await registryAuth(app) } })).status, 200);
  assert.is((await pushBlob(app, await registryAuth(app), pub, Buffer.from('anon'))).status, 401);
  // A token without the package scope cannot use the registry through its bearer token either.
  const repoOnly = await app.token(w.user, ['write:repository']);
  const scoped = await registryAuth(app, repoOnly);
  assert.is((await fetch(`${app.url}/v2/${pub}/manifests/v1`, { headers: { Authorization: scoped } })).status, 403);
});

test.run();
