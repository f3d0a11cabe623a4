import { presentRepoList } from '../../../present/repos.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoSearch: Handler<'repoSearch'> = async (req) => {
  const q = req.query;
  const page = pageOf(q, req.config);
  const { rows, total } = await req.services.repos.search(
    req.auth.actor,
    {
      q: q.q,
      topicOnly: q.topic,
      includeDescription: q.includeDesc,
      uid: q.uid,
      exclusive: q.exclusive,
      includePrivate: q.private,
      isPrivate: q.is_private,
      template: q.template,
      archived: q.archived,
      mode: q.mode,
      sort: q.sort,
      order: q.order,
    },
    page,
  );
  return {
    status: 200,
    body: { ok: true, data: await presentRepoList(req, rows) },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
