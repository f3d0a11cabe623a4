// Transactions: services take a `Db` and run their writes in `withTx`, passing the transaction down.
import type { Db } from './client.js';

export async function withTx<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}
