// A migration task as Gitea's `GET /user/task/{id}` answers it (routers/web/user/task.go): its status
// (Gitea's TaskStatus: 0 queued, 1 running, 3 failed, 4 finished), what it does now or why it failed,
// the repository's id (0 once a failed migration removed it) and name, and its start and end in Unix
// seconds (0 when not yet).
import type { MigrateTaskRow } from '../db/schema/index.js';

export interface TaskStatusJson {
  status: number;
  message: string;
  'repo-id': number;
  'repo-name': string;
  start: number;
  end: number;
}

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);

export function toTaskStatus(task: MigrateTaskRow): TaskStatusJson {
  return {
    status: task.status, message: task.message, 'repo-id': task.repoId ?? 0, 'repo-name': task.repoName, start: unix(task.startedAt), end: unix(task.endedAt),
  };
}
