// Date-time query parameters (`since`, `before`, ...) read as the moments the database can hold.
import { Invalid } from '../services/errors.js';

// The moments PostgreSQL reads back from an ISO date: years 0001 to 9999 (UTC).
const earliest = Date.parse('0001-01-01T00:00:00.000Z');
const latest = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A date-time query value (the spec's format already checked) as a Date. A leap second passes the format
 * but is no JavaScript (nor Go) time: 422, as the format's own failure. A moment before year 1 or after
 * 9999 (year 0000, or an offset across the edge) is held to that range: it selects the same rows.
 */
export function instant(name: string, v: string | undefined): Date | undefined {
  if (!v) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new Invalid(`[${name}]: must match format "date-time"`);
  return new Date(Math.min(Math.max(t, earliest), latest));
}
