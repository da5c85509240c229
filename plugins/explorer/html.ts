/**
 * A tiny HTML builder for the explorer's server-rendered pages: the `html` tagged template escapes every value it
 * interpolates (text and attribute values alike) unless the value is already `Html`, so chain data — contract code,
 * variable names, call arguments — can never inject markup.
 */

/** Markup that is already safe to put in a page. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** Trusted markup, taken as is (for the page's own fixed fragments, never for chain data). */
export const raw = (text: string): Html => new Html(text);

/** Nothing for null, undefined and false (so `${cond && html`…`}` reads naturally); arrays are joined. */
function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** JSON for a `<script type="application/json">` element: `<` is escaped so the text cannot close the element. */
export function scriptJson(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
}
