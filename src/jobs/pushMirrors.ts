// The push mirror worker (#39): pushes the mirrors that pushes marked wanted (`sync_on_commit`), one a
// round, right away when this process marked one, else every poll interval (marks made by other
// processes). Any number of processes may run it: a mirror is held by one lease (services/repos/pushMirrors.ts).
import type { ServiceDeps } from '../services/context.js';
import { pushMirrorQueued, type PushMirrorService } from '../services/repos/pushMirrors.js';
import { PollingWorker } from './pollingWorker.js';

/** How often a process looks for push mirrors marked by other processes. */
export const pushMirrorPollMs = 2_000;

export class PushMirrorWorker extends PollingWorker {
  constructor(deps: ServiceDeps, private readonly mirrors: PushMirrorService) {
    super(deps.log.child({ worker: 'push-mirrors' }), pushMirrorQueued, () => pushMirrorPollMs, 1);
  }

  async runOnce(): Promise<number> {
    return (await this.mirrors.runOnce()) ? 1 : 0;
  }
}
