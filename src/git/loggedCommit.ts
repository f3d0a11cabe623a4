// A commit as a push describes it (payloads and feeds): shared by git/pushLog.ts, which asks git log,
// and git/treeDiff.ts, which walks the trees itself.

export interface LoggedCommit {
  id: string;
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  added: string[];
  removed: string[];
  modified: string[];
}
