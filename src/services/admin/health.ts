// What an operator's probes and scrapes read: cheap, read-only, one query each.
import { randomBytes } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { hookDeliveries } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';

/** Answers once the database answered `select 1`; rejects with its error (or after `timeoutMs`). */
export async function pingDatabase(deps: ServiceDeps, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([deps.db.execute(sql`select 1`), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Writes and removes a small file in DATA_DIR (repositories, attachments and PGlite live there). */
export async function checkDataDirWritable(deps: ServiceDeps): Promise<void> {
  const probe = join(deps.config.dataDir, `.healthz-${process.pid}-${randomBytes(4).toString('hex')}`);
  await writeFile(probe, 'ok');
  await unlink(probe);
}

/** Webhook deliveries waiting (first try or retry) and the age in seconds of the oldest of them (0 when none). */
export async function pendingDeliveries(deps: ServiceDeps): Promise<{ count: number; oldestAgeSeconds: number }> {
  const [row] = await deps.db
    .select({
      count: sql<number>`count(*)::int`,
      age: sql<number | null>`extract(epoch from (now() - min(${hookDeliveries.createdAt})))::float8`,
    })
    .from(hookDeliveries)
    .where(eq(hookDeliveries.state, 'pending'));
  return { count: Number(row?.count ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)) };
}
