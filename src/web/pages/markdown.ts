// Markdown as the pages show it: raw HTML in the source is escaped (`html: false`), and markdown-it's
// link check refuses javascript:, vbscript:, file: and non-image data: URLs, so the output is inert.
import MarkdownIt from 'markdown-it';
import { raw, type SafeHtml } from './html.js';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

// Links that leave the site open without handing it the page as referrer.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function markdown(source: string): SafeHtml {
  return raw(md.render(source));
}
