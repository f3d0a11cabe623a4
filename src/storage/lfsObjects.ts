// LFS objects in the `lfs` store: key `<oid[0:2]>/<oid[2:4]>/<oid[4:]>`, as Gitea lays them out (locally
// `$DATA_DIR/lfs/…`). One copy per oid, whatever the number of repositories that hold it.
export const isOid = (oid: unknown): oid is string => typeof oid === 'string' && /^[0-9a-f]{64}$/.test(oid);

export function lfsKey(oid: string): string {
  if (!isOid(oid)) throw new Error(`not an LFS oid: ${JSON.stringify(oid)}`);
  return `${oid.slice(0, 2)}/${oid.slice(2, 4)}/${oid.slice(4)}`;
}
