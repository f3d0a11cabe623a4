/**
 * Gitea keeps only the date of a deadline: 23:59:59 of that day, in the time zone the client wrote.
 * "2026-03-01T08:00:00+02:00" → 2026-03-01T23:59:59+02:00.
 */
export function endOfDay(value: string): Date {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[Tt ][^Zz+-]*)?([Zz]|[+-]\d{2}:?\d{2})?$/.exec(value.trim());
  if (!m) return new Date(value);
  const zone = !m[2] || m[2].toUpperCase() === 'Z' ? 'Z' : m[2].includes(':') ? m[2] : `${m[2].slice(0, 3)}:${m[2].slice(3)}`;
  return new Date(`${m[1]}T23:59:59${zone}`);
}

/** Gitea's TimeStamp.FormatDate (the server's zone, UTC here): `2006-01-02`. */
const dateOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Gitea's createDeadlineComment: the timeline entry of a deadline change, undefined when it did not change.
 * `added_deadline` holds the new date, `removed_deadline` the old one, `modified_deadline` `new|old`.
 */
export function deadlineComment(before: Date | null, after: Date | null):
  { type: 'added_deadline' | 'modified_deadline' | 'removed_deadline'; body: string } | undefined {
  if ((before?.getTime() ?? null) === (after?.getTime() ?? null)) return undefined;
  if (!after) return { type: 'removed_deadline', body: dateOf(before!) };
  if (!before) return { type: 'added_deadline', body: dateOf(after) };
  return { type: 'modified_deadline', body: `${dateOf(after)}|${dateOf(before)}` };
}
