/**
 * JSON.stringify(text) for a string: its canonical form (docs/spec.md §2). Text of printable
 * ASCII other than `"` and `\` needs no escape and is quoted as it is, which costs a fraction
 * of JSON.stringify for the short env kinds and keys of every env entry; anything else is
 * JSON.stringify's.
 */
export function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 /* " */ || c === 0x5c /* \ */ || c > 0x7e) {
      return JSON.stringify(text);
    }
  }
  return '"' + text + '"';
}
