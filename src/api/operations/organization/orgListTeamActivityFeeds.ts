import { tokenAllows } from '../../auth.js';
import { loadTeam } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentFeed } from '../../../present/feeds.js';
import { privateActivityShown } from '../../../services/events/feeds.js';
import type { Handler } from '../../types.js';

export const orgListTeamActivityFeeds: Handler<'orgListTeamActivityFeeds'> = async (req) => {
  const { team, org, viewer } = await loadTeam(req, req.path.id);
  const page = pageOf(req.query, req.config);
  const includePrivate = privateActivityShown(req.auth.actor, viewer.isMember, tokenAllows(req.auth, 'repository'));
  const scope = { kind: 'team' as const, orgId: org.id, teamId: team.id, allRepositories: team.includesAllRepositories };
  const { rows, total } = await req.services.feeds.list(req.auth.actor, scope, { date: req.query.date, includePrivate }, page);
  return { status: 200, body: await presentFeed(req, rows, () => org.id), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
