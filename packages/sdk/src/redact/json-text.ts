// Rule `json-text-member` (docs/guides/recording.md, "Redaction"): a string that is a whole JSON
// document (a request body stored as text, a tool's JSON output) is redacted by member name
// inside it, like a value would be. Only the secret members' values change: every other byte
// of the text, whitespace and escapes included, stays as it was written.

import { REDACTED } from './rules.js';

const REDACTED_JSON = JSON.stringify(REDACTED);

/**
 * The text with the value of every member whose name `isSecretName` accepts replaced by
 * `"[REDACTED]"` (null and boolean values are kept, as for members of values), or `text`
 * itself when it is not a JSON document or nothing in it is secret.
 */
export function redactJsonText(text: string, isSecretName: (name: string) => boolean): string {
  return redactJsonDocument(text, isSecretName) ?? text;
}

/**
 * As redactJsonText, but undefined when `text` is not a JSON document or has no secret member
 * (so that callers apply the rules for other text instead).
 */
export function redactJsonDocument(
  text: string,
  isSecretName: (name: string) => boolean,
): string | undefined {
  if (!looksLikeJsonDocument(text)) return undefined;
  // The scan tolerates any text. Only when it finds secrets is the text parsed, to be sure it
  // is a JSON document; a clean one (the common case) is left to the rules for other text.
  const spans = secretValueSpans(text, isSecretName);
  if (spans.length === 0) return undefined;
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + REDACTED_JSON;
    at = end;
  }
  return out + text.slice(at);
}

/** Whether the first and last non-space characters are `{` and `}`, or `[` and `]`. */
export function looksLikeJsonDocument(text: string): boolean {
  let first = 0;
  let last = text.length - 1;
  while (first <= last && isSpace(text.charCodeAt(first))) first++;
  while (last > first && isSpace(text.charCodeAt(last))) last--;
  const open = text.charCodeAt(first);
  const close = text.charCodeAt(last);
  return last > first && ((open === 0x7b && close === 0x7d) || (open === 0x5b && close === 0x5d));
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

interface Frame {
  readonly isObject: boolean;
  /** Where this container starts when it is itself a secret member's value, else -1. */
  readonly secretStart: number;
  expectName: boolean;
}

/**
 * The [start, end) spans of secret members' values in valid JSON text, in order and disjoint
 * (a secret inside a secret value is covered by the outer span). One pass, explicit stack.
 */
function secretValueSpans(
  text: string,
  isSecretName: (name: string) => boolean,
): [number, number][] {
  const spans: [number, number][] = [];
  const stack: Frame[] = [];
  let insideSecret = 0;
  let pendingSecret = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b || c === 0x5b) {
      const secretStart = pendingSecret ? i : -1;
      if (pendingSecret) insideSecret++;
      pendingSecret = false;
      stack.push({ isObject: c === 0x7b, secretStart, expectName: c === 0x7b });
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      const frame = stack.pop();
      i++;
      if (frame !== undefined && frame.secretStart >= 0 && --insideSecret === 0)
        spans.push([frame.secretStart, i]);
    } else if (c === 0x22) {
      const end = stringEnd(text, i);
      if (top?.isObject && top.expectName) {
        top.expectName = false;
        pendingSecret = insideSecret === 0 && isSecretName(nameOf(text, i, end));
      } else {
        if (pendingSecret) spans.push([i, end]);
        pendingSecret = false;
      }
      i = end;
    } else if (c === 0x2c) {
      if (top?.isObject) top.expectName = true;
      i++;
    } else if (c === 0x3a || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else {
      // A number or a literal.
      let end = i + 1;
      while (end < n && !endsScalar(text.charCodeAt(end))) end++;
      const token = text.slice(i, end);
      if (pendingSecret && token !== 'null' && token !== 'true' && token !== 'false')
        spans.push([i, end]);
      pendingSecret = false;
      i = end;
    }
  }
  return spans;
}

function endsScalar(c: number): boolean {
  return isSpace(c) || c === 0x2c || c === 0x5d || c === 0x7d;
}

/** A member name token's text, unescaped (most names have no escapes to undo). */
function nameOf(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return raw;
  }
}

/** The index just after the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    i += c === 0x5c ? 2 : 1;
  }
  return n;
}
