import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { ThreadView } from '../services/notifications/notifications.js';
import { repoUrls, toRepository } from './repo.js';
import { iso } from './time.js';

type Schemas = components['schemas'];

function subjectOf(v: ThreadView, urls: { html: string; api: string }, fullName: string): Schemas['NotificationSubject'] {
  const { row, issue, comment } = v;
  if ((row.subjectType === 'Issue' || row.subjectType === 'Pull') && issue) {
    const kind = issue.isPull ? 'pulls' : 'issues';
    const html = `${urls.html}/${kind}/${issue.index}`;
    return {
      title: issue.title,
      type: row.subjectType,
      state: v.merged ? 'merged' : issue.isClosed ? 'closed' : 'open',
      url: `${urls.api}/${kind}/${issue.index}`,
      html_url: html,
      latest_comment_url: comment ? `${urls.api}/issues/comments/${comment.id}` : '',
      latest_comment_html_url: comment ? `${html}#issuecomment-${comment.id}` : '',
    };
  }
  if (row.subjectType === 'Commit' && row.commitId) {
    return {
      title: row.commitId, type: 'Commit', state: '', url: `${urls.api}/git/commits/${row.commitId}`, html_url: `${urls.html}/commit/${row.commitId}`,
      latest_comment_url: '', latest_comment_html_url: '',
    };
  }
  return { title: fullName, type: 'Repository', state: '', url: urls.api, html_url: urls.html, latest_comment_url: '', latest_comment_html_url: '' };
}

export function toNotificationThread(v: ThreadView, viewer: UserRow, config: Config): Schemas['NotificationThread'] {
  const urls = repoUrls(config, v.owner.name, v.repo.name);
  return {
    id: v.row.id,
    pinned: v.row.status === 'pinned',
    unread: v.row.status === 'unread',
    updated_at: iso(v.row.updatedAt),
    url: `${config.rootUrl}api/v1/notifications/threads/${v.row.id}`,
    repository: toRepository(v.repo, v.owner, v.perm, viewer, config),
    subject: subjectOf(v, urls, `${v.owner.name}/${v.repo.name}`),
  };
}
