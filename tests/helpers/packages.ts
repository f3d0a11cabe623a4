// Shared setup of the package tests: who is who around a user's and an organization's packages, and
// publishing generic files over HTTP (the format routes under /api/packages).
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import { actor, addTeamMember, createOrg, createTeam, fresh, type Actor, type Organization, type Visibility } from './orgs.js';

export interface PackageWorld {
  /** A user who owns packages of their own. */
  user: Actor;
  /** The organization's creator (Owners team). */
  orgOwner: Actor;
  /** In a team with the packages unit at write. */
  writer: Actor;
  /** In a team with the packages unit at read. */
  reader: Actor;
  /** Signed in, not a member. */
  outsider: Actor;
  org: Organization;
}

export async function packageWorld(app: TestApp, visibility: Visibility = 'private'): Promise<PackageWorld> {
  const [user, orgOwner, writer, reader, outsider] = await Promise.all([actor(app), actor(app), actor(app), actor(app), actor(app)]);
  const org = await createOrg(app, orgOwner, { visibility });
  const writers = await createTeam(app, orgOwner, org.name, { name: 'writers', units_map: { 'repo.code': 'read', 'repo.packages': 'write' } });
  const readers = await createTeam(app, orgOwner, org.name, { name: 'readers', units_map: { 'repo.code': 'read', 'repo.packages': 'read' } });
  await addTeamMember(app, orgOwner, writers.id, writer.username);
  await addTeamMember(app, orgOwner, readers.id, reader.username);
  return { user: user!, orgOwner: orgOwner!, writer: writer!, reader: reader!, outsider: outsider!, org };
}

export const genericUrl = (app: TestApp, owner: string, name: string, version: string, file?: string) =>
  `${app.url}/api/packages/${encodeURIComponent(owner)}/generic/${encodeURIComponent(name)}/${encodeURIComponent(version)}${file === undefined ? '' : `/${encodeURIComponent(file)}`}`;

/** PUTs a generic file; answers the response. */
export function putGeneric(app: TestApp, auth: string | undefined, owner: string, name: string, version: string, file: string, body: string | Buffer): Promise<Response> {
  return fetch(genericUrl(app, owner, name, version, file), { method: 'PUT', headers: auth ? { Authorization: auth } : {}, body: typeof body === 'string' ? body : new Uint8Array(body) });
}

/** Publishes a generic file that must be accepted; answers the package name. */
export async function publishGeneric(app: TestApp, by: Actor, owner: string, opts: { name?: string; version?: string; file?: string; body?: string } = {}): Promise<{ name: string; version: string }> {
  const name = opts.name ?? fresh('pkg');
  const version = opts.version ?? '1.0.0';
  const res = await putGeneric(app, by.auth, owner, name, version, opts.file ?? 'file.bin', opts.body ?? `content of ${name} ${version}`);
  assert.is(res.status, 201, `publish ${owner}/${name}@${version}: ${await res.text()}`);
  return { name, version };
}
