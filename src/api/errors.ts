// The one table from domain errors to HTTP answers. 404 has an empty body; every other error is
// {message, url} as Gitea's APIError.
import type { Context } from 'koa';
import { storageProblemOf } from '../git/storage.js';
import { DomainError, TooManyRequests } from '../services/errors.js';
import { LeaseLost } from '../services/leases.js';

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
    /** Headers the answer carries (a 416's `Content-Range`). */
    readonly headers?: Record<string, string>,
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

/**
 * Failures of the repository storage (src/git/storage.ts): nothing the client sent is wrong, so neither
 * 4xx nor git's text (it names server paths); Gitea answers 500 with git's error, anvil the status HTTP
 * has for each — 503 for a disk that cannot be written now (read-only, not permitted, failing), 507 for a
 * full one. The server logs them as it logs unexpected errors.
 */
const storageAnswers = {
  unwritable: { status: 503, message: 'the repository storage cannot be written at the moment; nothing was changed, try again later' },
  full: { status: 507, message: 'the repository storage is full; nothing was changed' },
} as const;

/** Maps anything thrown to an answer; unknown errors are 500; both those and storage failures are logged by the caller (`unexpected`). */
export function errorAnswer(err: unknown): { status: number; message: string; unexpected: boolean; headers?: Record<string, string> } {
  if (err instanceof TooManyRequests) return { status: 429, message: err.message, unexpected: false, headers: { 'Retry-After': String(err.retryAfter) } };
  if (err instanceof DomainError) return { status: statusOf[err.kind] ?? 500, message: err.message, unexpected: false };
  if (err instanceof HttpError) return { status: err.status, message: err.message, unexpected: false, ...(err.headers ? { headers: err.headers } : {}) };
  if (err instanceof LeaseLost) return { status: 503, message: 'the server was too busy to finish this in time; nothing was changed, try again', unexpected: true };
  const storage = storageProblemOf(err);
  if (storage) return { ...storageAnswers[storage], unexpected: true };
  return { status: 500, message: 'internal server error', unexpected: true };
}
