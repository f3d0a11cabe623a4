// The repository statistics worker (#38): rounds of RepoStatsService (services/repos/repoStats.ts), one
// wanted repository a round (its languages and licenses), right away when this process marked one, else
// every poll interval (marks made by other processes). Any number of processes may run it: a
// repository's round is held by one lease.
import type { RepoStatsService } from '../services/repos/repoStats.js';
import { repoStatsQueued } from '../services/repos/repoStats.js';
import type { ServiceDeps } from '../services/context.js';
import { PollingWorker } from './pollingWorker.js';

/** How often a process looks for repositories marked by other processes. */
export const repoStatsPollMs = 2_000;

export class RepoStatsWorker extends PollingWorker {
  constructor(deps: ServiceDeps, private readonly stats: RepoStatsService) {
    super(deps.log.child({ worker: 'repo-stats' }), repoStatsQueued, () => repoStatsPollMs, 1);
  }

  async runOnce(): Promise<number> {
    return (await this.stats.runOnce()) ? 1 : 0;
  }
}
