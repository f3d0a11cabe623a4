import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { ReactionView } from '../services/issues/reactions.js';
import { iso } from './time.js';
import { toUser } from './user.js';

export function toReaction(v: ReactionView, viewer: UserRow | null, config: Config): components['schemas']['Reaction'] {
  return { user: toUser(v.user, viewer, config), content: v.reaction.type, created_at: iso(v.reaction.createdAt) };
}
