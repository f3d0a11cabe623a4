import type { components } from '../../generated/openapi.js';
import type { CronTaskView } from '../services/admin/cron.js';
import { iso } from './time.js';

/** Go's zero time, which Gitea shows for a disabled task's `next` and `prev` (and for a task never run). */
export const zeroTime = '0001-01-01T00:00:00Z';

export function toCron(t: CronTaskView): components['schemas']['Cron'] {
  return { name: t.name, schedule: t.schedule, next: t.next ? iso(t.next) : zeroTime, prev: t.prev ? iso(t.prev) : zeroTime, exec_times: t.execTimes };
}
