// A repository's git hook (Gitea's GitHook): `content` only when the hook is active, as Gitea's omitempty.
import type { components } from '../../generated/openapi.js';
import type { CustomHook } from '../git/customHooks.js';

export type GitHookJson = components['schemas']['GitHook'];

export function toGitHook(hook: CustomHook): GitHookJson {
  return { name: hook.name, is_active: hook.isActive, ...(hook.isActive ? { content: hook.content } : {}) };
}
