// CreateHookOption / EditHookOption as Gitea checks them: the eleven hook types, the config keys (url,
// content_type, slack's channel) in Gitea's order, events expanded from their groups (unknown names
// ignored, none → push), branch_filter a glob.
import { BadRequest, Invalid } from '../errors.js';
import { hookEventTypes, type HookEventType } from './types.js';

export const hookTypes = ['gitea', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist'] as const;
export type HookType = (typeof hookTypes)[number];

const issueGroup: HookEventType[] = ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const pullGroup: HookEventType[] = [
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment', 'pull_request_sync', 'pull_request_review_request',
];
// A Map, not an object: request names such as `__proto__` or `constructor` must find nothing.
const groups = new Map<string, HookEventType[]>([
  ['issues', issueGroup],
  ['issues_only', ['issues']],
  ['pull_request', pullGroup],
  ['pull_request_only', ['pull_request']],
  ['pull_request_review', ['pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment']],
]);

/** The HookEventType names a request's `events` selects, in a fixed order; unknown names are ignored, none selects push. */
export function expandEvents(names: readonly string[] | null | undefined): HookEventType[] {
  const picked = new Set<HookEventType>();
  for (const raw of names ?? []) {
    const name = raw.trim().toLowerCase();
    for (const t of groups.get(name) ?? ((hookEventTypes as readonly string[]).includes(name) ? [name as HookEventType] : [])) picked.add(t);
  }
  if (picked.size === 0) picked.add('push');
  return hookEventTypes.filter((t) => picked.has(t));
}

/** A glob as Gitea's branch filters use them: `*` and `**` any run of characters, `?` one, `[...]` a class, `{a,b}` alternatives. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      while (glob[i + 1] === '*') i++;
      re += '.*';
    } else if (c === '?') re += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) throw new Invalid(`[BranchFilter]: GlobPattern (unclosed [ in ${glob})`);
      let cls = glob.slice(i + 1, end);
      if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
      re += `[${cls.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '{') {
      depth++;
      re += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      re += ')';
    } else if (c === ',' && depth > 0) re += '|';
    else if (c === '\\' && i + 1 < glob.length) re += `\\${glob[++i]}`;
    else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  if (depth) throw new Invalid(`[BranchFilter]: GlobPattern (unclosed { in ${glob})`);
  try {
    return new RegExp(`^${re}$`);
  } catch {
    throw new Invalid(`[BranchFilter]: GlobPattern (${glob})`);
  }
}

/** Whether a branch passes a hook's filter; an empty filter (or `*`) passes every branch. */
export function branchMatches(filter: string, branch: string): boolean {
  if (!filter || filter === '*') return true;
  return globToRegExp(filter).test(branch);
}

export interface HookFields {
  name: string;
  type: HookType;
  url: string;
  contentType: 'json' | 'form';
  secret: string;
  config: Record<string, string>;
  events: HookEventType[];
  branchFilter: string;
  authorizationHeader: string;
  active: boolean;
  isSystem?: boolean;
}

export interface HookOption {
  name?: string | null;
  type?: string;
  config?: Record<string, string> | null;
  events?: string[] | null;
  branch_filter?: string | null;
  authorization_header?: string | null;
  active?: boolean | null;
}

function checkUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Invalid('Invalid url');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Invalid('Invalid url');
}

const reserved = new Set(['url', 'content_type', 'secret', 'is_system_webhook', 'http_method']);

/** Checks a config map in Gitea's order; answers the known keys and the rest. */
function checkConfig(type: HookType, config: Record<string, string>, whole: boolean): Pick<HookFields, 'url' | 'contentType' | 'config'> & { secret?: string; isSystem?: boolean } {
  if (whole) {
    for (const key of ['url', 'content_type']) if (!(key in config)) throw new Invalid(`Missing config option: ${key}`);
  }
  const ct = config.content_type;
  if (ct !== undefined && ct !== 'json' && ct !== 'form') throw new Invalid('Invalid content type');
  if (config.url !== undefined) checkUrl(config.url);
  let isSystem: boolean | undefined;
  if (config.is_system_webhook !== undefined) {
    const v = config.is_system_webhook.toLowerCase();
    if (!['true', 'false', '1', '0', 't', 'f'].includes(v)) throw new Invalid('Invalid is_system_webhook value');
    isSystem = ['true', '1', 't'].includes(v);
  }
  if (type === 'slack' && whole) {
    const channel = config.channel?.trim();
    if (!channel) throw new Invalid('Missing config option: channel');
    if (!/^[#@]?[^\s#@,]+$/.test(channel)) throw new BadRequest('Invalid slack channel name');
  }
  const extra = Object.fromEntries(Object.entries(config).filter(([k]) => !reserved.has(k)));
  return { url: config.url ?? '', contentType: (ct ?? 'json') as 'json' | 'form', config: extra, secret: config.secret, isSystem };
}

/** CreateHookOption → the hook's fields (422/400 with Gitea's messages). */
export function hookFromCreate(opt: HookOption): HookFields {
  const type = String(opt.type ?? '').toLowerCase();
  if (!(hookTypes as readonly string[]).includes(type)) throw new Invalid(`Invalid hook type: ${opt.type ?? ''}`);
  const config = checkConfig(type as HookType, opt.config ?? {}, true);
  const branchFilter = opt.branch_filter ?? '';
  if (branchFilter) globToRegExp(branchFilter);
  return {
    name: opt.name ?? '',
    type: type as HookType,
    url: config.url,
    contentType: config.contentType,
    secret: config.secret ?? '',
    config: config.config,
    events: expandEvents(opt.events),
    branchFilter,
    authorizationHeader: opt.authorization_header ?? '',
    active: opt.active ?? false,
    isSystem: config.isSystem,
  };
}

/** EditHookOption: only what it names changes; config keys merge into the stored ones. */
export function hookFromEdit(current: HookFields, opt: HookOption): HookFields {
  const next: HookFields = { ...current };
  if (opt.config) {
    const config = checkConfig(current.type, opt.config, false);
    if (opt.config.url !== undefined) next.url = config.url;
    if (opt.config.content_type !== undefined) next.contentType = config.contentType;
    if (config.secret !== undefined) next.secret = config.secret;
    next.config = { ...current.config, ...config.config };
    if (current.type === 'slack') checkConfig('slack', { url: next.url, content_type: next.contentType, ...next.config }, true);
  }
  if (opt.name !== undefined && opt.name !== null) next.name = opt.name;
  if (opt.events) next.events = expandEvents(opt.events);
  if (opt.branch_filter !== undefined && opt.branch_filter !== null) {
    if (opt.branch_filter) globToRegExp(opt.branch_filter);
    next.branchFilter = opt.branch_filter;
  }
  if (opt.authorization_header !== undefined && opt.authorization_header !== null) next.authorizationHeader = opt.authorization_header;
  if (opt.active !== undefined && opt.active !== null) next.active = opt.active;
  return next;
}
