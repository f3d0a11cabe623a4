// JSON request bodies, read with a size limit. Like Gitea's binding, a JSON body is accepted whatever
// Content-Type the client sent (curl -d sends form-urlencoded), and a real form body is read as a form.
import type { Context } from 'koa';
import { HttpError } from './errors.js';

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than ${limit} bytes`);
}

async function readText(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get('Content-Length') || 0);
  // Node discards a body nobody read once the answer is sent.
  if (declared > limit) throw tooLarge(limit);
  const req = ctx.req;
  if (req.readableEnded) return '';
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size > limit) {
        // Let the rest flow away unread: destroying the request would also close the socket, and
        // the client would never see the 413.
        cleanup();
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    }
    function onEnd() {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    }
    function onError(err: Error) {
      cleanup();
      reject(err);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Deepest nesting of arrays and objects a body may have: validation recurses, and no operation needs more. */
export const maxJsonDepth = 64;

/** The nesting depth of a parsed JSON value, counted without recursion (the value may be thousands deep). */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > maxJsonDepth) return max;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, d + 1]);
  }
  return max;
}

/** A text/plain body (POST /markdown/raw), whatever Content-Type the client sent, as Gitea reads it. */
export async function readTextBody(ctx: Context, limit: number): Promise<string> {
  return readText(ctx, limit);
}

/** The parsed body, or undefined when there is none. Malformed JSON is a 400 naming the problem. */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const text = await readText(ctx, limit);
  if (text.trim() === '') return undefined;
  const type = (ctx.get('Content-Type').split(';')[0] ?? '').trim().toLowerCase();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    if (type === 'application/x-www-form-urlencoded') {
      return Object.fromEntries(new URLSearchParams(text));
    }
    throw new HttpError(400, `invalid JSON body: ${(err as Error).message}`);
  }
  if (jsonDepth(parsed) > maxJsonDepth) throw new HttpError(400, `invalid JSON body: nested deeper than ${maxJsonDepth} levels`);
  return parsed;
}
