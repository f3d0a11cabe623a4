// Gitea's PyPI registry at `/api/packages/{owner}/pypi`, driven by twine and pip:
//   POST /api/packages/{owner}/pypi                              `twine upload` (multipart, `:action=file_upload`)
//   GET  /api/packages/{owner}/pypi/simple/{name}                the project's simple index (PEP 503 HTML, PEP 691 JSON by Accept)
//   GET  /api/packages/{owner}/pypi/files/{name}/{version}/{file} a file
// The upload is parsed as it streams (busboy): the file goes to the spool while hashed, never into memory.
import type Router from '@koa/router';
import busboy from 'busboy';
import type { Context } from 'koa';
import { pypiJsonType, toPypiSimpleHtml, toPypiSimpleJson } from '../../convert/pypiSimple.js';
import { BadRequest } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import type { Spooled } from '../../services/packages/packages.js';
import { PypiPackages } from '../../services/packages/pypi.js';
import { packageContext, sendPackageFile } from './context.js';

/** The form's fields and its `content` file (spooled); other files are read and dropped. */
async function readUpload(ctx: Context, services: Services): Promise<{ fields: Map<string, string[]>; filename: string; spooled: Spooled }> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { fieldSize: 16 * 1024 * 1024, fields: 1000, files: 4, parts: 1100 } });
  } catch {
    throw new BadRequest('the upload must be multipart/form-data');
  }
  const fields = new Map<string, string[]>();
  let file: { filename: string; spooled: Promise<Spooled> } | undefined;
  await new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return reject(new BadRequest(`the field ${name} is too long`));
      fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'content' || file) {
        stream.resume();
        return;
      }
      const spooled = services.packages.spool(stream, services.packages.sizeLimit('pypi'));
      spooled.catch(() => stream.resume());
      file = { filename: info.filename ?? '', spooled };
    });
    parser.on('fieldsLimit', () => reject(new BadRequest('too many fields')));
    parser.on('error', (err: Error) => reject(new BadRequest(`invalid multipart body: ${err.message}`)));
    parser.on('close', () => resolve());
    ctx.req.pipe(parser);
  }).catch(async (err) => {
    ctx.req.unpipe(parser);
    ctx.req.resume();
    if (file) await file.spooled.then((s) => services.packages.discard([{ spooled: s }]), () => undefined);
    throw err;
  });
  if (!file) throw new BadRequest('the file is missing (field content)');
  return { fields, filename: file.filename, spooled: await file.spooled };
}

export function pypiRoutes(router: Router, services: Services): void {
  const pypi = new PypiPackages(services.packages);
  const registry = (owner: string) => `${services.deps.config.rootUrl}api/packages/${encodeURIComponent(owner)}/pypi`;

  const upload = async (ctx: Context) => {
    const pc = await packageContext(ctx, services, String(ctx.params.owner), 'write');
    const u = await readUpload(ctx, services);
    await pypi.upload(pc.owner, pc.actor!, u);
    ctx.status = 201;
  };
  router.post('/api/packages/:owner/pypi', upload);
  router.post('/api/packages/:owner/pypi/', upload);

  const simple = async (ctx: Context) => {
    const pc = await packageContext(ctx, services, String(ctx.params.owner), 'read');
    const { pkg, versions } = await pypi.project(pc.owner.id, String(ctx.params.name));
    if (ctx.accepts('text/html', pypiJsonType) === pypiJsonType) {
      ctx.type = pypiJsonType;
      ctx.body = JSON.stringify(toPypiSimpleJson(registry(pc.owner.name), pkg, versions));
    } else {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = toPypiSimpleHtml(registry(pc.owner.name), pkg, versions);
    }
    ctx.vary('Accept');
  };
  router.get('/api/packages/:owner/pypi/simple/:name', simple);
  router.get('/api/packages/:owner/pypi/simple/:name/', simple);

  router.get('/api/packages/:owner/pypi/files/:name/:version/:filename', async (ctx) => {
    const pc = await packageContext(ctx, services, String(ctx.params.owner), 'read');
    const file = await pypi.file(pc.owner.id, String(ctx.params.name), String(ctx.params.version), String(ctx.params.filename));
    await sendPackageFile(ctx, services, file);
  });
}
