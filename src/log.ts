import pino, { type Logger } from 'pino';

/**
 * JSON lines by default; `pretty` (LOG_FORMAT=pretty) formats them for a person at a terminal through
 * pino-pretty, which runs in pino's transport worker and is loaded only then.
 */
export function createLogger(level: string, format: 'json' | 'pretty' = 'json'): Logger {
  const options = { level, base: { service: 'anvil' }, timestamp: pino.stdTimeFunctions.isoTime };
  if (format === 'pretty') {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: !process.env.NO_COLOR, translateTime: 'SYS:standard' } } });
  }
  return pino(options);
}
