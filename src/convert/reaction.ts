import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { ReactionView } from '../services/issues/reactions.js';
import { iso } from './time.js';
import { toUser } from './user.js';

/**
 * A reaction. A migrated one (#39) shows, as Gitea does, a stand-in user (id 0) named after the source's
 * account and the source's kind: `alice(Gitea)`.
 */
export function toReaction(v: ReactionView, viewer: UserRow | null, config: Config): components['schemas']['Reaction'] {
  const { reaction } = v;
  const user = reaction.originalAuthor ? standIn(v.user, `${reaction.originalAuthor}(Gitea)`) : v.user;
  return { user: toUser(user, viewer, config), content: reaction.type, created_at: iso(reaction.createdAt) };
}

function standIn(like: UserRow, name: string): UserRow {
  return {
    ...like, id: 0, name, lowerName: name.toLowerCase(), fullName: '', email: '', loginName: '', location: '', website: '', description: '',
    isAdmin: false, isRestricted: false, visibility: 'public', type: 'User', numFollowers: 0, numFollowing: 0, numStars: 0,
  };
}
