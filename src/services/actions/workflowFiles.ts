// Where workflows live in a commit, and whether a commit has any (read through the repository's cat-file
// reader, no git process): a push of a commit without workflow files can start no run, so no Actions
// trigger is queued for it, unless it goes to the default branch of a repository whose schedules it
// must drop (the push is recorded as ever; only the trigger worker's row and its reads are saved).
import { readDir, readTree } from '../../git/objects.js';

/** Where workflows are read from: `.gitea/workflows`, and `.github/workflows` when that has none. */
export const workflowDirs = ['.gitea/workflows', '.github/workflows'] as const;

export const isWorkflowFile = (e: { type: string; name: string }) => e.type === 'blob' && /\.ya?ml$/i.test(e.name);

/** Whether `sha` has a workflow file; true when that cannot be read (the trigger worker then decides). */
export async function hasWorkflowFiles(dir: string, sha: string): Promise<boolean> {
  try {
    // The commit and its root tree are read once: most repositories have neither .gitea nor .github.
    const root = await readDir(dir, sha, '');
    for (const wfDir of workflowDirs) {
      let entries = root;
      for (const part of wfDir.split('/')) {
        const sub = entries.find((e) => e.name === part && e.type === 'tree');
        entries = sub ? await readTree(dir, sub.id) : [];
      }
      if (entries.some(isWorkflowFile)) return true;
    }
    return false;
  } catch {
    return true;
  }
}
