// What every service needs: the database, the configuration and a logger.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db, TryLock } from '../db/client.js';

export interface ServiceDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** The database's cluster-wide lock (cron runs); without it, a lock in this process. */
  tryLock?: TryLock;
}
