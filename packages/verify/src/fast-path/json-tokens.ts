// Whether a stretch of JSON text is made only of well-formed tokens (RFC 8259 §2–7): strings
// with no raw control character and only the escapes §7 allows, numbers in the §6 grammar,
// the three literals, punctuation and whitespace. The event canonicalizer checks an event's
// structure (brackets, commas, colons, names) but reads its tokens as if they were valid;
// together the two prove the event is JSON, so verifyJson need not hand it to JSON.parse.
//
// Both cut the text into the same tokens: a string ends at its first unescaped quote, and a
// number here must be a maximal run of the characters the canonicalizer's numbers run over
// (digits, sign, point, exponent), so a run such as `01` or `1.` is refused, never read as two.
// Every alternative is told apart by its first character and punctuation is matched one
// character at a time, so a stretch that does not match fails in linear time.

const STRING = String.raw`"[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"`;
const NUMBER = String.raw`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![0-9+\-.eE])`;
const TOKENS = new RegExp(String.raw`^(?:${STRING}|${NUMBER}|true|false|null|[{}\[\],: \t\n\r])*$`);

/** Whether text[start, end) is a sequence of well-formed JSON tokens and whitespace. */
export function isWellFormedTokens(text: string, start: number, end: number): boolean {
  try {
    return TOKENS.test(text.slice(start, end));
  } catch {
    // A backtracking limit on a pathological stretch: not proven, the general path reads it.
    return false;
  }
}
