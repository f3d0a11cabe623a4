import pino, { type DestinationStream, type Logger } from 'pino';

// Secrets a log line must never carry, whatever wrote it (the access log, a failed request with its
// URL, an error's message or stack, git's stderr, a webhook delivery error): every line passes through
// maskSecrets just before it is written (pino's streamWrite hook), so a new log call cannot forget it.
const mask = '*****';
/** `?token=…`, `&access_token=…`, `sudo=…` and other credentials in a query string or form body. */
const secretParams = /([?&;](?:token|access_token|private_token|sudo|password|passwd|client_secret|secret|otp)=)[^&#;\s"'\\<>]*/gi;
/** `scheme://user:password@host` (git remotes, webhook and mirror URLs): the whole user information goes. */
const urlCredentials = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/?#@\s"'\\<>]+@/gi;
/**
 * `Authorization: token …`, `Bearer …`, `Basic …` as text, in a header dump or a message; the value has a
 * digit or a base64 sign, so prose ("basic authentication") stays.
 */
const authValues = /\b(token|bearer|basic)(\s+)([A-Za-z0-9+/=._~-]{8,})/gi;
/** A JSON property whose name says it is a secret: `"authorization":"…"`, `"x-gitea-otp":"…"`, `"secret":"…"`. */
const secretProps = /("(?:authorization|proxy-authorization|cookie|set-cookie|x-gitea-otp|x-forgejo-otp|sudo|token|access_token|secret|client_secret)"\s*:\s*")(?:[^"\\]|\\.)*"/gi;

/** `text` with every credential it carries replaced by `*****` (URLs keep their shape; user information becomes `<credentials>`). */
export function maskSecrets(text: string): string {
  return text
    .replace(secretParams, `$1${mask}`)
    .replace(urlCredentials, '$1<credentials>@')
    .replace(secretProps, `$1${mask}"`)
    .replace(authValues, (all, scheme: string, space: string, value: string) => (/[\d+/=]/.test(value) ? `${scheme}${space}${mask}` : all));
}

/**
 * JSON lines by default; `pretty` (LOG_FORMAT=pretty) formats them for a person at a terminal through
 * pino-pretty, which runs in pino's transport worker and is loaded only then. `destination`: where the
 * JSON lines go instead of stdout (tests read them).
 */
export function createLogger(level: string, format: 'json' | 'pretty' = 'json', destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'anvil' }, timestamp: pino.stdTimeFunctions.isoTime, hooks: { streamWrite: maskSecrets } };
  if (format === 'pretty' && !destination) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: !process.env.NO_COLOR, translateTime: 'SYS:standard' } } });
  }
  return destination ? pino(options, destination) : pino(options);
}
