// A worker that claims rows in rounds: a round right away when a change in this process says there is
// work (`wake` emits 'queued'), another at once after a full batch, else one every poll interval (work
// queued by other processes). Rounds never overlap; stop() waits for the one under way.
import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';

export abstract class PollingWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private running: Promise<unknown> = Promise.resolve();
  private readonly poke = () => this.schedule(20);

  protected constructor(
    protected readonly log: Logger,
    private readonly wake: EventEmitter,
    private readonly pollIntervalMs: () => number,
    private readonly batchSize: number,
  ) {}

  /** Claims and handles one batch; answers how many rows it took. */
  abstract runOnce(): Promise<number>;

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake.on('queued', this.poke);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake.off('queued', this.poke);
    if (this.timer) clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.running.then(() => this.loop());
    }, ms);
  }

  private async loop(): Promise<void> {
    let n = 0;
    try {
      n = await this.runOnce();
    } catch (err) {
      this.log.warn({ err }, 'worker round failed');
    }
    this.schedule(n === this.batchSize ? 0 : this.pollIntervalMs());
  }
}
