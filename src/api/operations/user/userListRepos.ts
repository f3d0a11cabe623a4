import { presentRepoList } from '../../../present/repos.js';
import { loadUser } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListRepos: Handler<'userListRepos'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const page = pageOf(req.query, req.config);
  // The search's query and presenter: what the caller may see, each row with its permission, ordered by id as Gitea.
  const { rows, total } = await req.services.repos.search(req.auth.actor, { uid: user.id, exclusive: true, sort: 'id' }, page);
  return {
    status: 200,
    body: await presentRepoList(req, rows),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
