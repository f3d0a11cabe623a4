// What every service needs: the database, the configuration and a logger.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db, TryLock } from '../db/client.js';
import type { Payloads } from './events/payloadTypes.js';

export interface ServiceDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** The database's cluster-wide lock (cron runs); without it, a lock in this process. */
  tryLock?: TryLock;
  /** Webhook payloads (API JSON), built above the services: src/present/payloads.ts. */
  payloads: Payloads;
}
