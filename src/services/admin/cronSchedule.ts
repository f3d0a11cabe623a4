// Gitea's cron schedules: `@every <Go duration>`, the descriptors
// (`@midnight`, `@daily`, `@hourly`, `@weekly`, `@monthly`, `@yearly`, `@annually`) and cron expressions
// of five fields or six (with seconds), in the server's time zone. Gitea counts `@every` from its
// scheduler's start; anvil counts it from the Unix epoch, so that every process on a database plans the
// same moments and each moment runs once (CronService.run).
import { Cron } from 'croner';

export interface Schedule {
  /** As configured (shown by GET /admin/cron). */
  readonly spec: string;
  /** The first run strictly after `after`. */
  next(after: Date): Date;
}

const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`10m`, `72h`, `1h30m`, `1.5h`) in milliseconds, or undefined when it is none. */
export function parseGoDuration(text: string): number | undefined {
  const whole = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
  if (!whole.test(text)) return undefined;
  let ms = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) ms += Number(m[1]) * units[m[2]!]!;
  return ms;
}

const descriptors: Record<string, string> = {
  '@midnight': '0 0 0 * * *',
  '@daily': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
  '@weekly': '0 0 0 * * 0',
  '@monthly': '0 0 0 1 * *',
  '@yearly': '0 0 0 1 1 *',
  '@annually': '0 0 0 1 1 *',
};

export class ScheduleError extends Error {}

/** Parses a schedule. Throws ScheduleError when it is none. */
export function parseSchedule(spec: string): Schedule {
  const every = /^@every\s+(\S+)$/.exec(spec.trim());
  if (every) {
    const ms = parseGoDuration(every[1]!);
    // robfig/cron rounds below a second up to one second.
    if (ms === undefined || ms <= 0) throw new ScheduleError(`"${spec}" is no schedule: @every needs a positive duration such as 10m or 72h`);
    const step = Math.max(1000, Math.round(ms));
    return { spec, next: (after) => new Date((Math.floor(after.getTime() / step) + 1) * step) };
  }
  const pattern = descriptors[spec.trim()] ?? spec.trim();
  let cron: Cron;
  try {
    cron = new Cron(pattern, { paused: true });
  } catch (err) {
    throw new ScheduleError(`"${spec}" is no schedule: ${(err as Error).message}`);
  }
  return {
    spec,
    next(after) {
      const n = cron.nextRun(after);
      // A pattern that never fires again (e.g. 30 February) has no next run: far in the future.
      return n ?? new Date(8.64e15);
    },
  };
}
