// Glue for the feed operations: one page of feed rows (read with the viewer's permission on each
// repository) → Activities, their comments' details fetched once for the page.
import { toActivity } from '../convert/activity.js';
import { toAttachment } from '../convert/attachment.js';
import { toComment } from '../convert/issue.js';
import type { Config } from '../config.js';
import type { FeedEntry } from '../services/events/feeds.js';
import type { Services } from '../services/index.js';
import type { Auth } from '../permissions/caller.js';

export async function presentFeed(req: { services: Services; auth: Auth; config: Config }, entries: FeedEntry[], receiver: (e: FeedEntry) => number) {
  const viewer = req.auth.actor;
  const details = await req.services.comments.details(entries.flatMap((e) => (e.comment ? [e.comment.comment] : [])));
  return entries.map((e) => {
    const c = e.comment;
    const comment = c
      ? toComment(c.comment, c.issue, details.posters.get(c.comment.posterId), (details.assets.get(c.comment.id) ?? []).map((a) => toAttachment(a, req.config)), e.owner, e.repo, viewer, req.config)
      : null;
    return toActivity(e, receiver(e), e.perm, comment, viewer, req.config);
  });
}
