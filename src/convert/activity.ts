// Activity rows → the spec's Activity.
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { RepoPermission } from '../permissions/repo.js';
import type { FeedEntry } from '../services/events/feeds.js';
import { toRepository } from './repo.js';
import { iso } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];

/** `receiver`: whose feed this is (Gitea's `user_id`); `comment`: the converted comment, when the row has one. */
export function toActivity(
  e: FeedEntry, receiver: number, perm: RepoPermission, comment: Schemas['Comment'] | null, viewer: UserRow | null, config: Config,
): Schemas['Activity'] {
  const a = e.activity;
  return {
    id: a.id,
    act_user: toUser(e.actor, viewer, config),
    act_user_id: a.actUserId,
    op_type: a.opType as Schemas['Activity']['op_type'],
    comment,
    comment_id: comment ? a.commentId! : 0,
    content: a.content,
    created: iso(a.createdAt),
    is_private: e.repo.isPrivate,
    ref_name: a.refName,
    repo: toRepository(e.repo, e.owner, perm, viewer, config),
    repo_id: e.repo.id,
    user_id: receiver,
  };
}
