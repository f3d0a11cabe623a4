import type { components } from '../../generated/openapi.js';
import type { TagProtectionView } from '../services/git/tagProtections.js';
import { iso } from './time.js';

/** A tag protection rule as Gitea's TagProtection (users and teams by name). */
export function toTagProtection(v: TagProtectionView): components['schemas']['TagProtection'] {
  const { row, userNames, teamNames } = v;
  return {
    id: row.id,
    name_pattern: row.namePattern,
    whitelist_usernames: row.allowlistUserIds.map((id) => userNames.get(id)).filter((n): n is string => !!n),
    whitelist_teams: row.allowlistTeamIds.map((id) => teamNames.get(id)).filter((n): n is string => !!n),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
