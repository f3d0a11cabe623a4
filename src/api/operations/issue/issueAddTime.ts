import { toTrackedTime } from '../../../convert/trackedTime.js';
import { actorOf, loadRepo } from '../../load.js';
import { presentIssue } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueAddTime: Handler<'issueAddTime'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const b = req.body;
  const entry = await req.services.times.add(loaded, issue, actorOf(req), {
    time: b.time,
    created: b.created ? new Date(b.created) : undefined,
    userName: b.user_name ?? undefined,
  });
  return { status: 200, body: toTrackedTime(entry.time, entry.user, await presentIssue(req, loaded, issue)) };
};
