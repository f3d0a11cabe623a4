// Gitea's npm registry at `/api/packages/{owner}/npm/`, driven by the npm client:
//   GET|PUT  {name}                          the package document; `npm publish` (`npm deprecate` without a tarball)
//   GET      {name}/-/{version}/{file}       the tarball (and `{name}/-/{file}`)
//   DELETE   {name}/-/{version}/{file}/-rev/{rev}   `npm unpublish name@version`
//   PUT      {name}/-rev/{rev}                `npm unpublish` first sends the changed document: accepted
//   DELETE   {name}/-rev/{rev}                `npm unpublish name --force`: every version
//   GET      -/package/{name}/dist-tags, PUT|DELETE -/package/{name}/dist-tags/{tag}   `npm dist-tag`
//   GET      -/v1/search?text=&from=&size=   `npm search`: the owner's packages whose name has the text
// A scoped name comes as `@scope%2fname` (or `@scope/name`); the path is parsed here segment by segment.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { toNpmDocument, toNpmSearch } from '../../convert/npmPackage.js';
import { BadRequest, NotFound } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import { checkNpmName, NpmPackages } from '../../services/packages/npm.js';
import { readJsonBody, readTextBody } from '../body.js';
import { packageContext, sendPackageFile } from './context.js';

/** Splits the path after `/npm/` into the package name and what follows it. */
function splitName(segs: string[]): { name: string; rest: string[] } {
  const first = segs[0] ?? '';
  if (first.startsWith('@') && !first.includes('/')) return { name: `${first}/${segs[1] ?? ''}`, rest: segs.slice(2) };
  return { name: first, rest: segs.slice(1) };
}

export function npmRoutes(router: Router, services: Services): void {
  const npm = new NpmPackages(services.packages);
  const registry = (owner: string) => `${services.deps.config.rootUrl}api/packages/${encodeURIComponent(owner)}/npm/`;

  const document = async (ctx: Context, ownerName: string, name: string) => {
    const pc = await packageContext(ctx, services, ownerName, 'read');
    const { pkg, versions } = await npm.document(pc.owner.id, name);
    const withFiles = await Promise.all(versions.map(async (version) => ({ version, lead: (await services.packages.files(version.id)).find((f) => f.file.isLead) })));
    ctx.body = toNpmDocument(registry(pc.owner.name), pkg, withFiles);
  };

  const tarball = async (ctx: Context, ownerName: string, name: string, version: string | undefined, filename: string) => {
    const pc = await packageContext(ctx, services, ownerName, 'read');
    if (version === undefined) {
      // `{name}/-/{file}`: the version is the one whose tarball bears that name.
      const { versions } = await npm.document(pc.owner.id, name);
      for (const v of versions) if ((await services.packages.file(v.id, filename))) version = v.version;
      if (version === undefined) throw new NotFound('package file does not exist');
    }
    const found = await services.packages.findVersion(pc.owner.id, 'npm', name, version);
    const file = found && (await services.packages.file(found.version.id, filename));
    if (!file) throw new NotFound('package file does not exist');
    await sendPackageFile(ctx, services, file);
  };

  const distTags = async (ctx: Context, ownerName: string, name: string, tag: string | undefined) => {
    if (tag === undefined) {
      if (ctx.method !== 'GET') throw new NotFound();
      const pc = await packageContext(ctx, services, ownerName, 'read');
      const { pkg, versions } = await npm.document(pc.owner.id, name);
      ctx.body = toNpmDocument(registry(pc.owner.name), pkg, versions.map((version) => ({ version, lead: undefined })))['dist-tags'];
      return;
    }
    const pc = await packageContext(ctx, services, ownerName, 'write');
    if (ctx.method === 'PUT') {
      const version = await readJsonBody(ctx, 4096);
      if (typeof version !== 'string') throw new BadRequest('the body is the version, a JSON string');
      await npm.addTag(pc.owner.id, name, tag, version);
    } else if (ctx.method === 'DELETE') {
      await npm.removeTag(pc.owner.id, name, tag);
    } else throw new NotFound();
    ctx.status = 204;
  };

  router.all('/api/packages/:owner/npm/{*rest}', async (ctx) => {
    const ownerName = String(ctx.params.owner);
    const raw = ctx.path.slice(ctx.path.indexOf('/npm/') + 5);
    let segs: string[];
    try {
      segs = raw.split('/').map((s) => decodeURIComponent(s));
    } catch {
      throw new BadRequest('invalid path');
    }
    const m = ctx.method;
    if (segs[0] === '-') {
      if (segs[1] === 'v1' && segs[2] === 'search' && segs.length === 3 && m === 'GET') {
        const pc = await packageContext(ctx, services, ownerName, 'read');
        const int = (k: string, dflt: number) => {
          const raw = typeof ctx.query[k] === 'string' ? (ctx.query[k] as string) : '';
          const n = raw === '' ? dflt : Number(raw);
          if (!Number.isInteger(n) || n < 0) throw new BadRequest(`invalid ${k}`);
          return n;
        };
        const size = Math.min(int('size', 20), 250);
        const text = typeof ctx.query.text === 'string' ? ctx.query.text.trim() : '';
        const { rows, total } = await services.packages.searchLatest(pc.owner.id, 'npm', text, int('from', 0), size);
        ctx.body = toNpmSearch(registry(pc.owner.name), pc.owner, rows, total);
        return;
      }
      if (segs[1] === 'package') {
        const { name, rest } = splitName(segs.slice(2));
        checkNpmName(name);
        if (rest[0] === 'dist-tags' && rest.length <= 2) return distTags(ctx, ownerName, name, rest[1]);
      }
      throw new NotFound();
    }
    const { name, rest } = splitName(segs);
    checkNpmName(name);
    if (rest.length === 0 && m === 'GET') return document(ctx, ownerName, name);
    if (rest.length === 0 && m === 'PUT') {
      const pc = await packageContext(ctx, services, ownerName, 'write');
      const limit = services.packages.sizeLimit('npm');
      // The tarball comes base64-encoded inside the JSON document.
      const body = await readJsonBody(ctx, limit >= 0 ? Math.ceil(limit * 4 / 3) + 1024 * 1024 : 512 * 1024 * 1024);
      const attachments = (body as { _attachments?: unknown } | undefined)?._attachments;
      if (attachments && typeof attachments === 'object' && Object.keys(attachments).length) {
        await npm.publish(pc.owner, pc.actor!, name, body);
        ctx.status = 201;
      } else {
        // No tarball: `npm deprecate` sending the document back.
        await npm.deprecate(pc.owner.id, name, body);
        ctx.status = 200;
      }
      ctx.body = { ok: true };
      return;
    }
    if (rest[0] === '-' && rest.length === 3 && m === 'GET') return tarball(ctx, ownerName, name, rest[1], rest[2]!);
    if (rest[0] === '-' && rest.length === 2 && m === 'GET') return tarball(ctx, ownerName, name, undefined, rest[1]!);
    if (rest[0] === '-' && rest.length === 5 && rest[3] === '-rev' && m === 'DELETE') {
      const pc = await packageContext(ctx, services, ownerName, 'write');
      const found = await services.packages.findVersion(pc.owner.id, 'npm', name, rest[1]!);
      if (!found) throw new NotFound('package version does not exist');
      await services.packages.deleteVersion(found.version, pc.actor!);
      ctx.status = 200;
      ctx.body = { ok: true };
      return;
    }
    if (rest[0] === '-rev' && rest.length === 2 && (m === 'PUT' || m === 'DELETE')) {
      const pc = await packageContext(ctx, services, ownerName, 'write');
      if (m === 'PUT') {
        // npm sends the document without the version it unpublishes, then deletes the tarball: nothing to do yet.
        await readTextBody(ctx, 64 * 1024 * 1024);
        await npm.document(pc.owner.id, name);
      } else {
        const { versions } = await npm.document(pc.owner.id, name);
        for (const v of versions) await services.packages.deleteVersion(v, pc.actor!);
      }
      ctx.status = 200;
      ctx.body = { ok: true };
      return;
    }
    throw new NotFound();
  });
}
