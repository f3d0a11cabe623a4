// The code index worker (#41): rounds of CodeIndexService (services/search/codeIndex.ts), one wanted
// repository a round, right away when this process marked one, else every poll interval (marks made by
// other processes). Any number of processes may run it: a repository's round is held by one lease.
import type { CodeIndexService } from '../services/search/codeIndex.js';
import { codeIndexQueued } from '../services/search/codeIndex.js';
import type { ServiceDeps } from '../services/context.js';
import { PollingWorker } from './pollingWorker.js';

/** How often a process looks for repositories marked by other processes. */
export const codeIndexPollMs = 2_000;

export class CodeIndexWorker extends PollingWorker {
  constructor(deps: ServiceDeps, private readonly index: CodeIndexService) {
    super(deps.log.child({ worker: 'code-index' }), codeIndexQueued, () => codeIndexPollMs, 1);
  }

  async runOnce(): Promise<number> {
    return (await this.index.runOnce()) ? 1 : 0;
  }
}
