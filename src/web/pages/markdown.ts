// Markdown as the pages show it, by the one renderer of services/markup (raw HTML escaped, inert links).
import { renderMarkdown } from '../../services/markup/markdown.js';
import { raw, type SafeHtml } from './html.js';

export function markdown(source: string): SafeHtml {
  return raw(renderMarkdown(source));
}
