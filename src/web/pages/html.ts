// HTML from tagged templates: every interpolated value is escaped unless it is already `SafeHtml`
// (made by `html` itself, or by `raw` for markup a trusted renderer produced, such as Markdown's).

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => entities[c]!);
}

/** Interpolation values: text (escaped), safe markup, or lists of either (joined); null and false print nothing. */
export type Value = string | number | SafeHtml | null | undefined | false | Value[];

function render(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup that is already safe (the Markdown renderer's output); never for anything a user typed. */
export const raw = (s: string) => new SafeHtml(s);
