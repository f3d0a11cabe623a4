// Actions artifacts written straight into storage and the table (the upload path has its own tests in
// tests/integration/artifactProtocol.test.ts and builtinRunner.test.ts): for the API's operations.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eq } from 'drizzle-orm';
import { actionArtifacts, type ActionArtifactRow, type ArtifactState } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import type { SeededRun } from './actions.js';

/** An artifact of `seeded`'s run whose zip holds `bytes` (any bytes: the API does not open it). */
export async function seedArtifact(app: TestApp, seeded: SeededRun, opts: { name?: string; status?: ArtifactState; bytes?: Buffer; expiresAt?: Date } = {}): Promise<ActionArtifactRow> {
  const { db, config } = app.services.deps;
  const bytes = opts.bytes ?? Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'binary');
  const [row] = await db
    .insert(actionArtifacts)
    .values({
      runId: seeded.run.id, repoId: seeded.run.repoId, ownerId: seeded.run.ownerId, jobId: seeded.jobs[0]?.id ?? 0, name: opts.name ?? 'dist',
      size: bytes.length, status: opts.status ?? 'upload_confirmed', expiresAt: opts.expiresAt ?? new Date(Date.now() + 86_400_000),
    })
    .returning();
  const rel = join('actions_artifacts', String(seeded.run.id), `${row!.id}.zip`);
  mkdirSync(dirname(join(config.dataDir, rel)), { recursive: true });
  writeFileSync(join(config.dataDir, rel), bytes);
  const [done] = await db.update(actionArtifacts).set({ storagePath: rel }).where(eq(actionArtifacts.id, row!.id)).returning();
  return done!;
}
