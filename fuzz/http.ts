// Sending one generated request over HTTP, timed, and writing it down as a curl command a person can
// run again (credentials shown as shell variables, never their values).
import { request } from 'undici';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** The URL as a printed command shows it, when it differs (values marked for shell variables). */
  shownUrl?: string;
  /** The body as generated, for messages. */
  shown?: unknown;
}

export interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** The body parsed, when the answer says JSON and is; undefined otherwise. */
  json: unknown;
  /** Milliseconds from sending to the whole body read. */
  ms: number;
}

export interface SendOptions {
  /** No answer within this long is a failure (the server hung). */
  timeoutMs: number;
  /**
   * Read the body whatever the status: fetch drops a 205's body (a null-body status to it), undici's
   * request API reads what was sent.
   */
  rawBody?: boolean;
}

export class NoAnswer extends Error {}

export async function send(req: HttpRequest, options: SendOptions): Promise<Answer> {
  const started = performance.now();
  let status: number, headers: Headers, text: string;
  try {
    const signal = AbortSignal.timeout(options.timeoutMs);
    if (options.rawBody) {
      const r = await request(req.url, { method: req.method as 'PUT', headers: req.headers, body: req.body as string | undefined, signal });
      text = await r.body.text();
      status = r.statusCode;
      headers = new Headers(Object.entries(r.headers).flatMap(([k, v]) => [v ?? []].flat().map((x): [string, string] => [k, String(x)])));
    } else {
      const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, redirect: 'manual', signal });
      text = await res.text();
      status = res.status;
      headers = res.headers;
    }
  } catch (err) {
    throw new NoAnswer(`no answer within ${options.timeoutMs / 1000}s (${String(err)})`);
  }
  const contentType = headers.get('content-type') ?? '';
  let json: unknown;
  try {
    json = /json/i.test(contentType) && text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, contentType, text, json, ms: performance.now() - started };
}

/** Single-quoted for a POSIX shell. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The request as a curl command. Each secret (a token, a password, a Basic credential) found in a
 * header or the URL is replaced by the shell variable named for it, in double quotes, so the printed
 * command runs as it is once the variable is set, and never shows the secret.
 */
export function toCurl(req: HttpRequest, secrets: Array<{ value: string; shell: string }>): string {
  const mask = (s: string) => {
    let rest = s;
    for (const { value, shell } of secrets) if (value && rest.includes(value)) rest = rest.split(value).join(`\u0000${shell}\u0000`);
    // Even pieces are plain text (single-quoted), odd ones shell expressions (double-quoted, so they expand).
    return rest.split('\u0000').map((piece, i) => (i % 2 ? `"${piece}"` : piece ? quote(piece) : '')).join('') || "''";
  };
  const args = ['curl', '-sS', '--globoff', '--path-as-is', '-X', req.method, mask(req.shownUrl ?? req.url)];
  for (const [k, v] of Object.entries(req.headers)) args.push('-H', mask(`${k}: ${v}`));
  if (typeof req.body === 'string') args.push('--data-binary', quote(req.body));
  else if (req.body instanceof FormData) {
    for (const [k, v] of req.body.entries()) {
      if (typeof v === 'string') args.push('--form-string', quote(`${k}=${v}`));
      else args.push('-F', quote(`${k}=@/dev/null;filename=${(v as File).name || 'file'}`));
    }
  }
  // The status on a line of its own after the body, so a replay shows what it got.
  args.push('-w', quote('\\n%{http_code}\\n'));
  return args.join(' ');
}
