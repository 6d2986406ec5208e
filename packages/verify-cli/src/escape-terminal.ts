// Record-derived text is untrusted: a tool name, model id or value may carry bytes that a
// terminal obeys (ESC starting a CSI or OSC sequence, BEL, C1 controls such as CSI U+009B) or
// that reorder what the reader sees (bidi embeddings, overrides and isolates). Every human
// output of runback passes such text through this one function, so no record can set the
// terminal title, recolour a verdict or make "INVALID" read as something else.

// C0 controls, DEL, C1 controls, the Arabic letter mark, LRM/RLM, line/paragraph separators,
// bidi embeddings/overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * The text with every character a terminal would act on shown as a visible `\uXXXX` escape
 * (ESC becomes `\u001b`, RIGHT-TO-LEFT OVERRIDE `\u202e`); everything else is unchanged.
 */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether the text holds a character {@link escapeTerminal} would escape. */
export function hasTerminalControl(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}
