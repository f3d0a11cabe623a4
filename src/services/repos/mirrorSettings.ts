// A pull mirror's settings (#39): its interval as Gitea writes it, and where its sealed credentials belong.
import { parseGoDuration } from '../admin/cronSchedule.js';
import type { ServiceDeps } from '../context.js';
import { Invalid } from '../errors.js';

/** The place a mirror's sealed credentials are bound to (they cannot be moved to another mirror). */
export const mirrorSecretPlace = (repoId: number) => ({ ownerId: 0, repoId, name: 'pull-mirror-credentials' });

/** A Go duration for a mirror's interval, in seconds; `0` or empty turns periodic syncing off. */
export function mirrorIntervalSeconds(text: string | undefined, deps: ServiceDeps, field = 'mirror_interval'): number {
  const { mirrorDefaultIntervalS, mirrorMinIntervalS } = deps.config.migrations;
  if (text === undefined || text === '') return mirrorDefaultIntervalS;
  if (text === '0') return 0;
  const ms = parseGoDuration(text);
  if (ms === undefined || ms < 0) throw new Invalid(`invalid ${field} "${text}": a Go duration such as 8h0m0s`);
  if (ms / 1000 < mirrorMinIntervalS) throw new Invalid(`${field} must be at least ${mirrorMinIntervalS}s (or 0)`);
  return Math.round(ms / 1000);
}

