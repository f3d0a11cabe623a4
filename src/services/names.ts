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
