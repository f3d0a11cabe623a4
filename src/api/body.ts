// JSON request bodies, read with a size limit. Like Gitea's binding, a JSON body is accepted whatever
// Content-Type the client sent (curl -d sends form-urlencoded), and a real form body is read as a form.
import type { Context } from 'koa';
import { HttpError } from './errors.js';

async function readText(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw new HttpError(413, `request body is larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      ctx.req.destroy();
      throw new HttpError(413, `request body is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The parsed body, or undefined when there is none. Malformed JSON is a 400 naming the problem. */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const text = await readText(ctx, limit);
  if (text.trim() === '') return undefined;
  const type = (ctx.get('Content-Type').split(';')[0] ?? '').trim().toLowerCase();
  try {
    return JSON.parse(text);
  } catch (err) {
    if (type === 'application/x-www-form-urlencoded') {
      return Object.fromEntries(new URLSearchParams(text));
    }
    throw new HttpError(400, `invalid JSON body: ${(err as Error).message}`);
  }
}
