// A user as OpenID Connect claims (the provider's ID tokens and /login/oauth/userinfo), as Gitea names them.
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';

export type Claims = Record<string, unknown> & { sub: string };

/** Gitea's scopes and the claims each releases. */
export const claimsByScope = {
  openid: ['sub'],
  profile: ['name', 'family_name', 'given_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture', 'website', 'locale', 'updated_at'],
  email: ['email', 'email_verified'],
  groups: ['groups'],
} as const;

export function toClaims(user: UserRow, groups: string[], config: Config): Claims {
  const base = config.rootUrl;
  return {
    sub: String(user.id),
    name: user.fullName || user.name,
    nickname: user.name,
    preferred_username: user.name,
    profile: `${base}${encodeURIComponent(user.name)}`,
    picture: `${base}avatars/${user.id}`,
    website: user.website || undefined,
    locale: user.language || undefined,
    updated_at: Math.floor(user.updatedAt.getTime() / 1000),
    email: user.email || undefined,
    email_verified: !!user.email && user.isActive,
    groups,
  };
}
