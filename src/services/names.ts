// Gitea's rules for user and organization names, shared by every place that creates one.
import { Invalid } from './errors.js';

const reservedNames = new Set([
  '.', '..', '.well-known', 'api', 'metrics', 'v2', 'assets', 'attachments', 'avatar', 'avatars',
  'repo-avatars', 'captcha', 'login', 'org', 'repo', 'user', 'explore', 'issues', 'pulls',
  'milestones', 'notifications', 'favicon.ico', 'manifest.json', 'robots.txt', 'sitemap.xml',
  'ssh_info', 'swagger.v1.json', 'ghost', 'gitea-actions',
  // Older Gitea releases reserve these too; clients and URLs of ours may collide with them.
  'admin', 'new', 'debug', 'error', 'search',
]);
const reservedSuffixes = ['.keys', '.gpg', '.rss', '.atom', '.png'];

/** Names no account can have, because the site's own paths use them (`/api`, `/avatars`, ...). */
export const isReservedOwnerName = (name: string) => reservedNames.has(name.toLowerCase());

/** Throws Invalid with Gitea-like messages when `name` cannot be a user or organization name. */
export function checkOwnerName(name: string, field = 'username'): void {
  if (name.length === 0) throw new Invalid(`[${field}]: Required`);
  if (name.length > 40) throw new Invalid(`[${field}]: MaxSize`);
  if (!/^[\da-zA-Z][-.\w]*$/.test(name) || /[-._]{2,}|[-._]$/.test(name)) {
    throw new Invalid(
      `[${field}]: Username should contain only alphanumeric, dash ('-'), underscore ('_') and dot ('.') characters, ` +
        'start with an alphanumeric character, and not contain consecutive or trailing dashes, underscores or dots',
    );
  }
  const lower = name.toLowerCase();
  if (reservedNames.has(lower)) throw new Invalid(`name is reserved [name: ${name}]`);
  const suffix = reservedSuffixes.find((s) => lower.endsWith(s));
  if (suffix) throw new Invalid(`name pattern is not allowed [pattern: *${suffix}]`);
}

// Deliberately simple: one @, no spaces or control characters, a dot-free or dotted domain.
const emailPattern = /^[^\s@\x00-\x1f\x7f]+@[^\s@\x00-\x1f\x7f]+$/;

export function checkEmail(email: string): void {
  if (!emailPattern.test(email) || email.length > 254) throw new Invalid(`e-mail invalid [email: ${email}]`);
}

const reservedRepoNames = new Set(['.', '..', '-']);
const reservedRepoSuffixes = ['.git', '.wiki', '.rss', '.atom'];

/** Gitea's IsUsableRepoName: `[-.\w]+`, no `..`, not `.`/`..`/`-`, no .git/.wiki/.rss/.atom suffix. */
export function checkRepoName(name: string): void {
  if (!name) throw new Invalid('[name]: Required');
  if (name.length > 100) throw new Invalid('[name]: MaxSize');
  if (!/^[-.\w]+$/.test(name) || name.includes('..')) throw new Invalid(`name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`);
  const lower = name.toLowerCase();
  if (reservedRepoNames.has(lower)) throw new Invalid(`name is reserved [name: ${name}]`);
  const suffix = reservedRepoSuffixes.find((s) => lower.endsWith(s));
  if (suffix) throw new Invalid(`name pattern is not allowed [pattern: *${suffix}]`);
}

/**
 * git check-ref-format rules for a branch or tag name (without refs/heads/), at most 100 characters,
 * and no leading dash (it would read as an option).
 */
export function isValidRefName(name: string): boolean {
  if (!name || name.length > 100 || name.startsWith('-') || name === '@') return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}

/**
 * A name a new branch may take: a valid ref name that `git check-ref-format --branch` also accepts as a
 * branch (not `HEAD`), that does not read as a full ref (`refs/heads/x` would make `refs/heads/refs/heads/x`)
 * and that is not a full commit id (it would shadow the commit wherever a revision is resolved).
 */
export function isValidNewBranchName(name: string): boolean {
  return isValidRefName(name) && name !== 'HEAD' && !name.startsWith('refs/') && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(name);
}
