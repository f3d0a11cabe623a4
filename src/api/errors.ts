// The one table from domain errors to HTTP answers. 404 has an empty body; every other error is
// {message, url} as Gitea's APIError.
import type { Context } from 'koa';
import { DomainError, TooManyRequests } from '../services/errors.js';

const statusOf: Record<string, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  NotAllowed: 405,
  Conflict: 409,
  PreconditionFailed: 412,
  PayloadTooLarge: 413,
  Invalid: 422,
  RepoArchived: 423,
  TooManyRequests: 429,
  NotImplemented: 501,
};

/** An HTTP-level failure found before a handler runs (body parsing, routing). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function writeError(ctx: Context, status: number, message: string, swaggerUrl: string): void {
  if (status === 404) {
    // Koa turns a null body into 204 unless the status is set after the body.
    ctx.remove('Content-Type');
    ctx.body = null;
    ctx.status = 404;
    return;
  }
  ctx.status = status;
  ctx.body = { message, url: swaggerUrl };
}

/** Maps anything thrown to an answer; unknown errors are 500 and logged by the caller. */
export function errorAnswer(err: unknown): { status: number; message: string; unexpected: boolean; headers?: Record<string, string> } {
  if (err instanceof TooManyRequests) return { status: 429, message: err.message, unexpected: false, headers: { 'Retry-After': String(err.retryAfter) } };
  if (err instanceof DomainError) return { status: statusOf[err.kind] ?? 500, message: err.message, unexpected: false };
  if (err instanceof HttpError) return { status: err.status, message: err.message, unexpected: false };
  return { status: 500, message: 'internal server error', unexpected: true };
}
