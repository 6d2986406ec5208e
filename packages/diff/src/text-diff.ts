// A readable difference of two strings: the regions that changed, each with some unchanged
// text around it, and the long unchanged stretches between them elided. A prompt of several
// thousand characters changed in one word shows as that word in its sentence, wherever in the
// prompt it sits. Tokens are words, runs of space and single punctuation marks (jsdiff's
// word diff over a Myers O(ND) search); a change inside one very long token (an id, base64)
// falls back to characters, because the common head and tail are cut by character first.
import { diffWordsWithSpace } from 'diff';

/** One piece of a text diff, in reading order. */
export type TextSegment =
  | { readonly kind: 'same' | 'removed' | 'added'; readonly text: string }
  /** Text left out: `length` UTF-16 code units of `of` text (unchanged, removed or added). */
  | { readonly kind: 'elided'; readonly of: 'same' | 'removed' | 'added'; readonly length: number };

/** The difference of two strings. */
export interface TextDiff {
  /** The UTF-16 index in `before` (and `after`) of the first differing character; -1 when equal. */
  readonly firstChange: number;
  /** The segments, with unchanged text beyond `context` of a change elided. Empty when equal. */
  readonly segments: readonly TextSegment[];
  /** Changed regions: runs of removed and added text separated by elided unchanged text. */
  readonly regions: number;
}

/** Options of {@link diffText}. */
export interface TextDiffOptions {
  /** Unchanged characters kept on each side of a change. Default 40. */
  readonly context?: number;
  /** A removed or added run longer than this keeps only its head and tail. Default 400. */
  readonly maxChanged?: number;
  /** The most token edits searched for; beyond it the middle is one removal and one addition. Default 1,000. */
  readonly maxEdits?: number;
}

const WORD = /[\p{L}\p{N}_]/u;
/** How far the common head or tail is walked back to a token boundary. */
const BOUNDARY_REACH = 24;

/**
 * The segments that show how `before` became `after`. The search reads `Date.now()` (jsdiff
 * times itself), so inside a run recorded with clock capture each call adds `now` events.
 */
export function diffText(before: string, after: string, options: TextDiffOptions = {}): TextDiff {
  const context = count('options.context', options.context ?? 40);
  const maxChanged = count('options.maxChanged', options.maxChanged ?? 400);
  const maxEdits = count('options.maxEdits', options.maxEdits ?? 1_000);
  if (before === after) return { firstChange: -1, segments: [], regions: 0 };

  let head = 0;
  const shorter = Math.min(before.length, after.length);
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  const firstChange = isLowSurrogate(before.charCodeAt(head)) ? head - 1 : head;
  let tail = 0;
  while (
    tail < shorter - head &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) {
    tail++;
  }
  head = toBoundary(before, head, -1);
  tail = before.length - toBoundary(before, before.length - tail, +1);
  // A surrogate pair is never split between the cut and the middle.
  if (head > 0 && isHighSurrogate(before.charCodeAt(head - 1))) head--;
  if (tail > 0 && isLowSurrogate(before.charCodeAt(before.length - tail))) tail--;

  const midA = before.slice(head, before.length - tail);
  const midB = after.slice(head, after.length - tail);
  const parts: { kind: 'same' | 'removed' | 'added'; text: string }[] = [];
  if (head > 0) parts.push({ kind: 'same', text: before.slice(0, head) });
  const changes =
    midA === '' || midB === ''
      ? undefined
      : diffWordsWithSpace(midA, midB, { maxEditLength: maxEdits });
  if (changes === undefined) {
    if (midA !== '') parts.push({ kind: 'removed', text: midA });
    if (midB !== '') parts.push({ kind: 'added', text: midB });
  } else {
    for (const c of changes) {
      push(parts, c.removed ? 'removed' : c.added ? 'added' : 'same', c.value);
    }
  }
  if (tail > 0) push(parts, 'same', before.slice(before.length - tail));
  return { firstChange, ...shorten(parts, context, maxChanged) };
}

/** Walks `at` back (direction -1) or forward (+1) to a token boundary, a few characters at most. */
function toBoundary(text: string, at: number, direction: -1 | 1): number {
  const inWord = (i: number) => i >= 0 && i < text.length && WORD.test(text.charAt(i));
  for (let step = 0; step <= BOUNDARY_REACH; step++) {
    const i = at + direction * step;
    if (i <= 0 || i >= text.length) return Math.max(0, Math.min(text.length, i));
    if (!(inWord(i - 1) && inWord(i))) return i;
  }
  return at;
}

function push(
  parts: { kind: 'same' | 'removed' | 'added'; text: string }[],
  kind: 'same' | 'removed' | 'added',
  text: string,
): void {
  if (text === '') return;
  const last = parts.at(-1);
  if (last !== undefined && last.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

function shorten(
  parts: readonly { kind: 'same' | 'removed' | 'added'; text: string }[],
  context: number,
  maxChanged: number,
): { segments: TextSegment[]; regions: number } {
  const segments: TextSegment[] = [];
  parts.forEach((part, i) => {
    const first = i === 0;
    const last = i === parts.length - 1;
    const { text, kind } = part;
    if (kind !== 'same') {
      segments.push(...keepEnds(kind, text, Math.floor(maxChanged / 2), Math.ceil(maxChanged / 2)));
      return;
    }
    if (first) segments.push(...keepEnds(kind, text, 0, context));
    else if (last) segments.push(...keepEnds(kind, text, context, 0));
    else segments.push(...keepEnds(kind, text, context, context));
  });
  // Two changes close together are one region: count only those split by elided text.
  let regions = 0;
  let inRegion = false;
  for (const s of segments) {
    if (s.kind === 'removed' || s.kind === 'added') {
      if (!inRegion) regions++;
      inRegion = true;
    } else if (s.kind === 'elided' && s.of === 'same') {
      inRegion = false;
    }
  }
  return { segments, regions };
}

/** `text` as its first `start` and last `end` code units with the rest elided (when there is any). */
function keepEnds(
  kind: 'same' | 'removed' | 'added',
  text: string,
  start: number,
  end: number,
): TextSegment[] {
  if (text.length <= start + end) return [{ kind, text }];
  let a = start;
  let b = text.length - end;
  if (a > 0 && isHighSurrogate(text.charCodeAt(a - 1))) a--;
  if (b < text.length && isLowSurrogate(text.charCodeAt(b))) b++;
  const out: TextSegment[] = [];
  if (a > 0) out.push({ kind, text: text.slice(0, a) });
  out.push({ kind: 'elided', of: kind, length: b - a });
  if (b < text.length) out.push({ kind, text: text.slice(b) });
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function count(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(
      `${name}: expected a non-negative integer, got ${JSON.stringify(value) ?? typeof value}`,
    );
  }
  return value;
}
