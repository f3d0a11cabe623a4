// Git LFS pointer files: what git keeps in place of a file whose content is in the LFS store.

/** An LFS pointer file: `version https://git-lfs.github.com/spec/v1`, `oid sha256:…`, `size …`. */
export function parsePointer(content: Buffer | string): { oid: string; size: number } | undefined {
  const text = typeof content === 'string' ? content : content.length > 1024 ? '' : content.toString('utf8');
  const m = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\n(?:[a-z0-9.-]+ [^\n]*\n)*?oid sha256:([0-9a-f]{64})\nsize (\d+)\n/.exec(text);
  if (!m) return undefined;
  const size = Number(m[2]);
  return Number.isSafeInteger(size) ? { oid: m[1]!, size } : undefined;
}
