// The body a hook of each type receives: Gitea's payload for gitea and gogs hooks, and for the chat and
// registry systems the message format that system accepts (one summary line, a link, the details).
import type { HookRow } from '../db/schema/index.js';

export interface Summary {
  title: string;
  text: string;
  url: string;
  actor: string;
  repo: string;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const markdown = (s: Summary) => `[${s.title}](${s.url})${s.text ? `\n\n${s.text}` : ''}`;

/** The JSON object a hook of `hook.type` is sent. */
export function hookMessage(hook: Pick<HookRow, 'type' | 'config'>, payload: Record<string, unknown>, s: Summary): Record<string, unknown> {
  const c = hook.config;
  switch (hook.type) {
    case 'slack':
      return {
        channel: c.channel, username: c.username || 'anvil', icon_url: c.icon_url || '',
        text: `<${s.url}|${s.title}>`,
        attachments: s.text ? [{ color: c.color || '', text: s.text }] : [],
      };
    case 'discord':
      return {
        username: c.username || 'anvil', avatar_url: c.icon_url || '',
        embeds: [{ title: s.title, description: s.text, url: s.url, color: 0x609926, author: { name: s.actor } }],
      };
    case 'dingtalk':
      return { msgtype: 'actionCard', actionCard: { title: s.title, text: markdown(s), hideAvatar: '0', singleTitle: 'view', singleURL: s.url } };
    case 'telegram':
      return { chat_id: c.chat_id, text: `<a href="${escapeHtml(s.url)}">${escapeHtml(s.title)}</a>${s.text ? `\n${escapeHtml(s.text)}` : ''}`, parse_mode: 'HTML' };
    case 'msteams':
      return {
        '@type': 'MessageCard', '@context': 'https://schema.org/extensions', themeColor: '609926', title: s.title, summary: s.title,
        sections: [{ activityTitle: s.actor, activitySubtitle: s.repo, text: s.text, facts: [{ name: 'Repository:', value: s.repo }] }],
        potentialAction: [{ '@type': 'OpenUri', name: 'View in browser', targets: [{ os: 'default', uri: s.url }] }],
      };
    case 'feishu':
      return { msg_type: 'text', content: { text: `${s.title}\n${s.url}${s.text ? `\n${s.text}` : ''}` } };
    case 'matrix':
      return {
        msgtype: c.message_type === 'm.text' ? 'm.text' : 'm.notice', body: `${s.title} ${s.url}${s.text ? `\n${s.text}` : ''}`,
        format: 'org.matrix.custom.html', formatted_body: `<a href="${escapeHtml(s.url)}">${escapeHtml(s.title)}</a>${s.text ? `<br>${escapeHtml(s.text)}` : ''}`,
      };
    case 'wechatwork':
      return { msgtype: 'markdown', markdown: { content: markdown(s) } };
    case 'packagist': {
      const repo = payload.repository as { html_url?: string } | undefined;
      return { repository: { url: repo?.html_url ?? s.url } };
    }
    default:
      return payload;
  }
}
