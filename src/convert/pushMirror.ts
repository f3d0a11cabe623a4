// A push mirror → API JSON (Gitea's PushMirror). The credentials are never shown.
import type { components } from '../../generated/openapi.js';
import type { PushMirrorRow } from '../db/schema/index.js';
import { goDuration, iso, isoOrNull } from './time.js';

export function toPushMirror(m: PushMirrorRow, repoName: string): components['schemas']['PushMirror'] {
  return {
    repo_name: repoName,
    remote_name: m.remoteName,
    remote_address: m.remoteAddress,
    created: iso(m.createdAt),
    last_update: isoOrNull(m.lastUpdate),
    last_error: m.lastError,
    interval: goDuration(m.intervalSeconds),
    sync_on_commit: m.syncOnCommit,
  };
}
