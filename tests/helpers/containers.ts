// Shared setup of the container registry tests: OCI image layouts on disk (what skopeo copies from and
// to), blobs and manifests pushed over HTTP, and the registry's bearer tokens.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';

export const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
export const ociManifestType = 'application/vnd.oci.image.manifest.v1+json';
export const ociIndexType = 'application/vnd.oci.image.index.v1+json';

/** A minimal tar archive holding one file (enough for a layer: skopeo copies layers as they are). */
export function tarOf(name: string, content: string): Buffer {
  const body = Buffer.from(content);
  const header = Buffer.alloc(512);
  header.write(name, 0, 100);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const pad = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([header, body, pad, Buffer.alloc(1024)]);
}

export interface Image {
  layer: Buffer;
  config: Buffer;
  manifest: Buffer;
  digest: string;
}

/** An image of one layer; `seed` makes its bytes unique. */
export function makeImage(seed: string): Image {
  const tar = tarOf('hello.txt', `hello from ${seed}\n`);
  const layer = gzipSync(tar);
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: [sha256(tar)] } }));
  const manifest = Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: ociManifestType,
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: config.length },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha256(layer), size: layer.length }],
  }));
  return { layer, config, manifest, digest: sha256(manifest) };
}

/** Writes an OCI image layout holding `image` under `tag`; answers its directory. */
export function ociLayout(image: Image, tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-oci-'));
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  for (const b of [image.layer, image.config, image.manifest]) writeFileSync(join(dir, 'blobs', 'sha256', sha256(b).slice(7)), b);
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(join(dir, 'index.json'), JSON.stringify({
    schemaVersion: 2, manifests: [{ mediaType: ociManifestType, digest: image.digest, size: image.manifest.length, annotations: { 'org.opencontainers.image.ref.name': tag } }],
  }));
  return dir;
}

/** A registry token for Basic credentials (or anonymous); answers the Authorization header. */
export async function registryAuth(app: TestApp, basic?: string): Promise<string> {
  const res = await fetch(`${app.url}/v2/token?service=container_registry&scope=*`, { headers: basic ? { Authorization: basic } : {} });
  assert.is(res.status, 200, await res.clone().text());
  const { token } = await res.json() as { token: string };
  return `Bearer ${token}`;
}

/** Pushes a blob monolithically (POST with `?digest=`); answers the response. */
export function pushBlob(app: TestApp, auth: string, image: string, bytes: Buffer, digest = sha256(bytes)): Promise<Response> {
  return fetch(`${app.url}/v2/${image}/blobs/uploads/?digest=${digest}`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/octet-stream' }, body: new Uint8Array(bytes) });
}

/** Pushes an image's blobs and its manifest under `reference`; all must be accepted. */
export async function pushImage(app: TestApp, auth: string, image: string, img: Image, reference: string): Promise<void> {
  for (const b of [img.layer, img.config]) {
    const res = await pushBlob(app, auth, image, b);
    assert.is(res.status, 201, await res.text());
  }
  const res = await putManifest(app, auth, image, reference, img.manifest);
  assert.is(res.status, 201, await res.text());
}

export function putManifest(app: TestApp, auth: string, image: string, reference: string, body: Buffer, type = ociManifestType): Promise<Response> {
  return fetch(`${app.url}/v2/${image}/manifests/${reference}`, { method: 'PUT', headers: { Authorization: auth, 'Content-Type': type }, body: new Uint8Array(body) });
}
