// @mentions in Markdown, as Gitea finds them: `@name` after a space, the start, `(` or `[`, and before a
// space, the end, `'`, `)`, `]` or punctuation followed by a space or the end. Code (fenced blocks,
// indented blocks and inline spans) mentions nobody; neither does an e-mail address.
const mention = /(?:^|[\s([])@([0-9A-Za-z_-](?:[0-9A-Za-z_.-]*[0-9A-Za-z_-])?)(?=$|['\s)\]]|[:,;.?!](?:\s|$))/g;

function withoutCode(markdown: string): string {
  return markdown
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm, '')
    .replace(/^(?: {4}|\t)[^\n]*$/gm, '')
    .replace(/(`+)[\s\S]*?\1/g, '');
}

/** The lower-cased names mentioned, each once, in order of first mention. */
export function mentionedNames(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of withoutCode(markdown).matchAll(mention)) out.add(m[1]!.toLowerCase());
  return [...out];
}
