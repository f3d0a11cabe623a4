// What every package format's route needs: the caller (the API's credentials, token scope `package`),
// the owner named in the path and what the caller may do with its packages. As Gitea's package routes,
// a caller without the access needed is 401 with `WWW-Authenticate` (clients then send credentials),
// except that an owner a signed-in caller may not see at all is 404.
import type { Context } from 'koa';
import type { PackageBlobRow, UserRow } from '../../db/schema/index.js';
import { NotFound, Unauthorized } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import type { PackageAccess } from '../../services/packages/packages.js';
import { authenticate, authorize, type Auth } from '../auth.js';
import { contentDisposition } from '../attachmentHttp.js';
import { textProblem } from '../textInput.js';

export interface PackageContext {
  auth: Auth;
  owner: UserRow;
  access: PackageAccess;
}

/** Raised where a format answers 401: the realm goes into `WWW-Authenticate`. */
export class PackageUnauthorized extends Unauthorized {}

export async function packageContext(ctx: Context, services: Services, ownerName: string, need: 'read' | 'write', auth?: Auth): Promise<PackageContext & { actor: UserRow | null }> {
  services.packages.ensureEnabled();
  auth ??= await authenticate(ctx, services);
  authorize(auth, { anonymous: true, basicOnly: false, scopes: ['package'], write: need === 'write' });
  if (textProblem({ ownerName })) throw new NotFound();
  const { owner, access } = await services.packages.ownerAccess(ownerName, auth.actor);
  if (!owner || access === 'none') {
    if (!auth.actor) throw new PackageUnauthorized('user should have specific permission or be a site admin');
    throw new NotFound();
  }
  if (need === 'write' && access !== 'write') throw new PackageUnauthorized('user should have specific permission or be a site admin');
  return { auth, owner, access, actor: auth.actor };
}

/**
 * Answers with a stored package file as a download (generic, npm and PyPI files alike): a 303 to the store
 * where it serves files directly (SERVE_DIRECT), otherwise the bytes streamed with their length; `headers`
 * go with the bytes only.
 */
export async function sendPackageFile(
  ctx: Context, services: Services, file: { blob: PackageBlobRow; file: { name: string } }, headers: Record<string, string> = {},
): Promise<void> {
  const opened = await services.packages.open(file.blob, file.file.name);
  if (opened.redirect) {
    ctx.status = 303;
    ctx.redirect(opened.redirect);
    return;
  }
  ctx.set('Content-Disposition', contentDisposition(file.file.name));
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.type = 'application/octet-stream';
  ctx.body = opened.stream;
  ctx.length = opened.size;
}
