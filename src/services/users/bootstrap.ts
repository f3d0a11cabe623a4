// First start: with no users at all, create the site administrator from ADMIN_* or with a random
// password printed once. main.ts runs it under the migration lock, so processes started together on an
// empty database take turns; it is idempotent besides: an administrator that appeared meanwhile (made by
// another process, or the command line) is kept, and the start goes on.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Services } from '../index.js';

export async function ensureFirstAdmin(services: Services, config: Config, log: Logger): Promise<void> {
  if ((await services.users.countIndividuals()) > 0) return;
  const username = config.admin.username || 'siteadmin';
  const email = config.admin.email || `${username}@localhost`;
  const password = config.admin.password || randomBytes(18).toString('base64url');
  try {
    await services.users.create({ username, email, password, isAdmin: true, mustChangePassword: false });
  } catch (err) {
    if ((await services.users.countIndividuals()) > 0) {
      log.info({ username }, 'the first administrator was created by another process');
      return;
    }
    throw new Error(`cannot create the first administrator (ADMIN_USERNAME/ADMIN_EMAIL/ADMIN_PASSWORD): ${(err as Error).message}`);
  }
  if (config.admin.password) {
    log.info({ username }, 'created the site administrator');
  } else {
    // Printed once, on purpose: it is stored only as a hash.
    log.warn({ username, password }, 'created the site administrator with a generated password; it is shown only now');
  }
}
