// The key Actions secrets are encrypted with, when the configuration names none: `$DATA_DIR/secret_key`,
// 32 random bytes in hex, made on first start. Several processes starting at once each write a candidate
// to `$DATA_DIR/tmp` and hard-link it to the final name; link() never replaces a file, so exactly one
// candidate wins and every process reads that one.
import { randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const secretKeyFile = (dataDir: string) => join(dataDir, 'secret_key');

/** The generated key's text (64 hex characters), made when there is none yet. */
export async function generatedSecretKey(dataDir: string): Promise<string> {
  const path = secretKeyFile(dataDir);
  const existing = await readKey(path);
  if (existing) return existing;
  const tmpDir = join(dataDir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, `${randomUUID()}.secret_key`);
  try {
    await writeFile(tmp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    await link(tmp, path).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(tmp, { force: true });
  }
  const won = await readKey(path);
  if (!won) throw new Error(`${path} is empty: remove it or set SECRET_KEY`);
  return won;
}

async function readKey(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
