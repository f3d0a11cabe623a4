import { git } from './core.js';

/** Local branch names, sorted. */
export async function listBranches(dir: string): Promise<string[]> {
  const { stdout } = await git(dir, ['for-each-ref', '--format=%(refname:strip=2)', 'refs/heads/']);
  return stdout.split('\n').filter(Boolean);
}

export async function setHead(dir: string, branch: string): Promise<void> {
  await git(dir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}
