// The one Markdown renderer: the HTML pages and POST /markdown, /markdown/raw and /markup use it. Raw HTML
// in the source is escaped (`html: false`), and markdown-it's link check refuses javascript:, vbscript:,
// file: and non-image data: URLs, so the output is inert. Pure: what it links is decided by the caller
// (`RenderEnv`), which looked up the accounts and the repository beforehand.
import MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';

export interface RenderEnv {
  /** ROOT_URL, ending in `/`: mentions and issue references link below it. */
  appUrl?: string;
  /** Lower-cased names of the accounts `@name` may link to (Gitea links only existing ones). */
  mentionable?: ReadonlySet<string>;
  /** `owner/repo` whose issues `#1` refers to (Gitea's comment and gfm modes with a repository context). */
  issueRepo?: string;
  /** Absolute URL relative links and images resolve against (Gitea's `Context`), ending in `/`. */
  linkBase?: string;
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

/** `@name` not preceded by a word character, dot or slash (so e-mail addresses stay text). */
export const MENTION = /(?<![\w.@/`])@([A-Za-z0-9](?:[\w.-]*[A-Za-z0-9_])?)/g;
/** `#12` or `owner/repo#12`, not inside a word. */
const ISSUE_REF = /(?<![\w/#&])(?:([A-Za-z0-9][\w.-]*)\/([\w.-]+))?#(\d+)\b/g;

/** The account names a text mentions, lower-cased (for looking them up before rendering). */
export function mentionedNames(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1]!.toLowerCase()))];
}

const isRelative = (href: string) => href !== '' && !href.startsWith('#') && !href.startsWith('//') && !/^[a-z][a-z0-9+.-]*:/i.test(href);

function resolve(href: string, env: RenderEnv): string {
  if (!env.linkBase || !isRelative(href)) return href;
  try {
    return new URL(href, env.linkBase).href;
  } catch {
    return href;
  }
}

function linkTokens(state: StateCore, href: string, cls: string, text: string): Token[] {
  const open = new state.Token('link_open', 'a', 1);
  open.attrs = [['href', href], ['class', cls]];
  const body = new state.Token('text', '', 0);
  body.content = text;
  return [open, body, new state.Token('link_close', 'a', -1)];
}

/** Replace mentions and issue references in text tokens outside links with links. */
md.core.ruler.push('anvil_references', (state) => {
  const env = state.env as RenderEnv;
  const appUrl = env.appUrl;
  if (!appUrl || (!env.mentionable?.size && !env.issueRepo)) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let inLink = 0;
    for (const t of block.children) {
      if (t.type === 'link_open') inLink++;
      if (t.type === 'link_close') inLink--;
      if (t.type !== 'text' || inLink > 0) {
        out.push(t);
        continue;
      }
      const found: Array<{ at: number; end: number; tokens: Token[] }> = [];
      for (const m of t.content.matchAll(MENTION)) {
        if (!env.mentionable?.has(m[1]!.toLowerCase())) continue;
        found.push({ at: m.index!, end: m.index! + m[0].length, tokens: linkTokens(state, `${appUrl}${encodeURIComponent(m[1]!)}`, 'mention', m[0]) });
      }
      if (env.issueRepo) {
        for (const m of t.content.matchAll(ISSUE_REF)) {
          const repo = m[1] ? `${m[1]}/${m[2]}` : env.issueRepo;
          const path = repo.split('/').map(encodeURIComponent).join('/');
          found.push({ at: m.index!, end: m.index! + m[0].length, tokens: linkTokens(state, `${appUrl}${path}/issues/${m[3]}`, 'ref-issue', m[0]) });
        }
      }
      if (!found.length) {
        out.push(t);
        continue;
      }
      found.sort((a, b) => a.at - b.at);
      let pos = 0;
      for (const f of found) {
        if (f.at < pos) continue;
        if (f.at > pos) {
          const before = new state.Token('text', '', 0);
          before.content = t.content.slice(pos, f.at);
          out.push(before);
        }
        out.push(...f.tokens);
        pos = f.end;
      }
      if (pos < t.content.length) {
        const rest = new state.Token('text', '', 0);
        rest.content = t.content.slice(pos);
        out.push(rest);
      }
    }
    block.children = out;
  }
});

// Links that leave the site open without handing it the page as referrer; relative ones resolve against the context.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const href = token.attrGet('href');
  if (typeof href === 'string') token.attrSet('href', resolve(href, env as RenderEnv));
  if (!token.attrGet('class')) token.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};
const defaultImage = md.renderer.rules.image ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const src = token.attrGet('src');
  if (typeof src === 'string') token.attrSet('src', resolve(src, env as RenderEnv));
  return defaultImage(tokens, idx, options, env, self);
};

/** The HTML of a Markdown text (safe to put into a page as it is). */
export function renderMarkdown(source: string, env: RenderEnv = {}): string {
  return md.render(source, { ...env });
}
