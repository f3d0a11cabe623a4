import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import { iso, never } from './time.js';

export type ApiUser = components['schemas']['User'];

/**
 * A user as `viewer` may see it. The e-mail address, sign-in details and admin flag are shown only to
 * the user themselves and to site administrators; others see the no-reply placeholder.
 */
export function toUser(user: UserRow, viewer: UserRow | null, config: Config): ApiUser {
  const authed = !!viewer && (viewer.isAdmin || viewer.id === user.id);
  const base = config.rootUrl;
  return {
    id: user.id,
    login: user.name,
    username: user.name,
    login_name: authed ? user.loginName : '',
    source_id: authed ? user.loginSource : 0,
    full_name: user.fullName,
    email: authed && user.email ? user.email : `${user.lowerName}@${config.noReplyDomain}`,
    avatar_url: `${base}avatars/${user.id}`,
    html_url: `${base}${encodeURIComponent(user.name)}`,
    language: authed ? user.language : '',
    is_admin: authed ? user.isAdmin : false,
    last_login: authed && user.lastLoginAt ? iso(user.lastLoginAt) : never,
    created: iso(user.createdAt),
    restricted: user.isRestricted,
    active: authed ? user.isActive : false,
    prohibit_login: authed ? user.prohibitLogin : false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: user.visibility,
    type: user.type,
    followers_count: user.numFollowers,
    following_count: user.numFollowing,
    starred_repos_count: user.numStars,
  };
}

/** A user's settings as /user/settings answers them (to the user themself only). */
export function toUserSettings(user: UserRow): components['schemas']['UserSettings'] {
  return {
    full_name: user.fullName,
    website: user.website,
    description: user.description,
    location: user.location,
    language: user.language,
    theme: user.theme,
    diff_view_style: user.diffViewStyle,
    hide_email: user.keepEmailPrivate,
    hide_activity: user.keepActivityPrivate,
  };
}
