// Gitea's generic packages: `PUT|GET|DELETE /api/packages/{owner}/generic/{name}/{version}/{file}` and
// `DELETE …/{version}`, driven by curl. A version takes more files; a file name it holds is 409.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../../services/index.js';
import { BadRequest, Conflict, NotFound } from '../../services/errors.js';
import { packageContext, sendPackageFile } from './context.js';

const nameShape = /^[-_+.\w]+$/;
const fileShape = /^[-_+=:;.()[\]{}~!@#$%^& \w]+$/;

function params(ctx: Context): { name: string; version: string; filename?: string } {
  const name = String(ctx.params.name);
  const version = String(ctx.params.version);
  const filename = ctx.params.filename === undefined ? undefined : String(ctx.params.filename);
  if (!nameShape.test(name) || !version || version !== version.trim() || /[/\0]/.test(version) || version.length > 255 || name.length > 255) {
    throw new BadRequest('invalid package name or version');
  }
  if (filename !== undefined && (!fileShape.test(filename) || filename !== filename.trim() || filename === '.' || filename === '..' || filename.length > 255)) {
    throw new BadRequest('invalid package filename');
  }
  return { name, version, filename };
}

export function genericRoutes(router: Router, services: Services): void {
  const base = '/api/packages/:owner/generic/:name/:version';

  router.put(`${base}/:filename`, async (ctx) => {
    const p = params(ctx);
    const pc = await packageContext(ctx, services, String(ctx.params.owner), 'write');
    const limit = services.packages.sizeLimit('generic');
    const spooled = await services.packages.spool(ctx.req, limit);
    const { created } = await services.packages.publish(pc.owner, pc.actor!, {
      type: 'generic', name: p.name, version: p.version, files: [{ name: p.filename!, spooled, isLead: false }], addToExisting: true,
    }).catch((err) => {
      if (err instanceof Conflict && err.message === 'package version already exists') throw new Conflict('package file already exists');
      throw err;
    });
    void created;
    ctx.status = 201;
  });

  const find = async (ctx: Context, need: 'read' | 'write') => {
    const p = params(ctx);
    const pc = await packageContext(ctx, services, String(ctx.params.owner), need);
    const found = await services.packages.findVersion(pc.owner.id, 'generic', p.name, p.version);
    if (!found) throw new NotFound('package does not exist');
    return { ...pc, ...found, p };
  };

  router.get(`${base}/:filename`, async (ctx) => {
    const f = await find(ctx, 'read');
    const file = await services.packages.file(f.version.id, f.p.filename!);
    if (!file) throw new NotFound('package file does not exist');
    await sendPackageFile(ctx, services, file, { 'X-Content-Type-Options': 'nosniff', 'ETag': `"${file.blob.sha256}"` });
  });

  router.delete(base, async (ctx) => {
    const f = await find(ctx, 'write');
    await services.packages.deleteVersion(f.version, f.actor!);
    ctx.status = 204;
  });

  router.delete(`${base}/:filename`, async (ctx) => {
    const f = await find(ctx, 'write');
    const file = await services.packages.file(f.version.id, f.p.filename!);
    if (!file) throw new NotFound('package file does not exist');
    await services.packages.deleteFile(f.version, file.file, f.actor!);
    ctx.status = 204;
  });
}
