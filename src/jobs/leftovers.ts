// The leftovers worker: takes over the half-done work of processes that died (or stalled past their
// lease), checked every LEFTOVERS_POLL_INTERVAL_MS on every process, not only at start-up: pushes git
// performed whose events were not recorded yet, and repository folders moved around a transaction
// that never finished, and migration tasks whose process stopped (one that never started is run here, one
// that was running is failed with a message). Each is a leased row (services/leases.ts), claimed by one process.
import { EventEmitter } from 'node:events';
import type { ServiceDeps } from '../services/context.js';
import type { GitTransportService } from '../services/git/gitTransport.js';
import type { MigrationService } from '../services/repos/migrations.js';
import type { RepoService } from '../services/repos/repos.js';
import { PollingWorker } from './pollingWorker.js';

const batchSize = 5;
/** How often the push journals a dead process left behind are looked for (they are only files). */
const sweepEveryMs = 10 * 60_000;

export class LeftoversWorker extends PollingWorker {
  private lastSweep = 0;

  constructor(
    deps: ServiceDeps,
    private readonly transport: GitTransportService,
    private readonly repos: RepoService,
    private readonly migrations: MigrationService,
  ) {
    super(deps.log.child({ worker: 'leftovers' }), new EventEmitter(), () => deps.config.leftovers.pollIntervalMs, batchSize);
  }

  async runOnce(): Promise<number> {
    const pushes = await this.transport.recoverPendingPushes(batchSize);
    const folders = await this.repos.recoverFolders(batchSize);
    const tasks = await this.migrations.recoverTasks(batchSize);
    if (Date.now() - this.lastSweep > sweepEveryMs) {
      this.lastSweep = Date.now();
      await this.transport.sweepJournals();
    }
    return Math.max(pushes, folders.taken, tasks);
  }
}
