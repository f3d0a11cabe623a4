// Password hashing with scrypt (memory-hard, in node:crypto), compared in constant time.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((res, rej) => scryptCb(pw, salt, len, opts, (e, k) => (e ? rej(e) : res(k))));

// N=2^15 by default (PASSWORD_HASH_COST=15), r=8: 32 MiB and ~60 ms per hash on our machines. The
// parameters are stored with each hash, so the cost can change without breaking existing passwords.
const r = 8;
const p = 1;
const keyLen = 32;

export async function hashPassword(password: string, cost = 15): Promise<string> {
  const N = 2 ** cost;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, keyLen, { N, r, p, maxmem: 128 * N * r * 2 });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A dummy hash to compare against when the user does not exist, so timing does not reveal names. */
let dummy: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const encoded = stored || (await (dummy ??= hashPassword('not a password')));
  const [alg, n, rr, pp, salt, hash] = encoded.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const got = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem: 128 * Number(n) * Number(rr) * 2,
  });
  return timingSafeEqual(expected, got) && !!stored;
}
