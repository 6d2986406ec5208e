// Record-derived text is data, never markup: escaped for Markdown (inline, one line) and HTML.

/** One line of Markdown text: control characters and newlines become spaces, markup is escaped. */
export function md(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += ' ';
    else if ('\\`*_[]<>|~'.includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

/** Text for HTML element content or a quoted attribute. */
export function html(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** A long value shortened for a table cell. */
export function clip(text: string, max = 400): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
