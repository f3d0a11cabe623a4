import type { components } from '../../generated/openapi.js';
import { iso } from './time.js';
import type { Subscription } from '../services/notifications/watches.js';

/** Gitea's WatchInfo; `url` is the subscription's API URL, `reason` always null. */
export function toWatchInfo(s: Subscription, repoApi: string, url: string): components['schemas']['WatchInfo'] {
  return { subscribed: s.subscribed, ignored: !s.subscribed, reason: null, created_at: iso(s.createdAt), url, repository_url: repoApi };
}
