// JSON Pointer changes as the commands print them: one line each, values shortened, and
// record-derived text (paths, values) escaped for the terminal. A string replaced by another
// that a one-line preview would cut is shown as a text diff instead: each changed region with
// the words around it, wherever in the string it sits.
import { diffText, preview as previewJson, type JsonChange } from '@runback/diff';
import { escapeTerminal, makeStyle, type Style } from '@runback/verify-cli';

/** A value shortened to one line, with control and bidi characters shown as escapes. */
export function preview(value: unknown, width: number): string {
  return escapeTerminal(previewJson(value, width));
}

/** How wide a value is shown on one line of output. */
export const VALUE_WIDTH = 72;

/** Changed regions of one string shown at most, each on its own line. */
const MAX_REGIONS = 6;

const PLAIN = makeStyle(false);

/**
 * One line per change: `+ path value`, `- path value`, `~ path before → after`, the first
 * line tagged with `label`; at most `limit` changes. A long string's replacement takes one
 * more line per changed region, removed text in `[-…-]` and added text in `{+…+}` (coloured
 * too when `style` colours).
 */
export function formatChanges(
  label: string,
  list: readonly JsonChange[],
  limit = Infinity,
  style: Style = PLAIN,
): string[] {
  const width = Math.max(label.length, 7);
  return list.slice(0, limit).flatMap((c, i) => {
    const tag = (i === 0 ? label : '').padEnd(width);
    const path = c.path === '' ? '(whole value)' : escapeTerminal(c.path);
    if (c.op === 'add') return [`    ${tag} + ${path}  ${preview(c.after, VALUE_WIDTH)}`];
    if (c.op === 'remove') return [`    ${tag} - ${path}  ${preview(c.before, VALUE_WIDTH)}`];
    if (typeof c.before === 'string' && typeof c.after === 'string' && !fitsOnALine(c)) {
      const indent = `    ${''.padEnd(width)}   `;
      return [
        `    ${tag} ~ ${path}  ${textSummary(c.before, c.after)}`,
        ...textDiffLines(c.before, c.after, style).map((line) => `${indent}${line}`),
      ];
    }
    return [
      `    ${tag} ~ ${path}  ${preview(c.before, VALUE_WIDTH)} → ${preview(c.after, VALUE_WIDTH)}`,
    ];
  });
}

function fitsOnALine(c: { before: unknown; after: unknown }): boolean {
  const fits = (v: unknown) => (JSON.stringify(v) ?? '').length <= VALUE_WIDTH;
  return fits(c.before) && fits(c.after);
}

/** `text changed at character N (A → B characters)`, N counted from 1 in code points. */
function textSummary(before: string, after: string): string {
  const d = diffText(before, after, { context: 0, maxChanged: 0 });
  const at = [...before.slice(0, d.firstChange)].length + 1;
  const length = (s: string) => [...s].length.toLocaleString('en-US');
  return `text changed at character ${at.toLocaleString('en-US')} (${length(before)} → ${length(after)} characters${d.regions > 1 ? `, ${d.regions} regions` : ''}):`;
}

/** The changed regions of `before` → `after`, one line each, escaped for the terminal. */
export function textDiffLines(before: string, after: string, style: Style = PLAIN): string[] {
  const { segments, regions } = diffText(before, after);
  const lines: string[] = [];
  let line = '';
  // Consecutive pieces of one side (a long run kept by its head and tail) share one marker.
  let open: { side: 'removed' | 'added'; text: string } | undefined;
  const close = () => {
    if (open === undefined) return;
    line +=
      open.side === 'removed' ? style.red(`[-${open.text}-]`) : style.green(`{+${open.text}+}`);
    open = undefined;
  };
  for (const s of segments) {
    const side = s.kind === 'elided' ? s.of : s.kind;
    if (side === 'same') {
      close();
      if (s.kind === 'elided') {
        // An unchanged stretch left out: it ends one region's line and begins the next one's.
        if (line !== '') lines.push(`${line}…`);
        line = '…';
      } else {
        line += shown(s.text);
      }
      continue;
    }
    if (open?.side !== side) close();
    const text =
      s.kind === 'elided'
        ? `…(${s.length.toLocaleString('en-US')} more characters)…`
        : shown(s.text);
    if (open === undefined) open = { side, text };
    else open.text += text;
  }
  close();
  if (line !== '' && line !== '…') lines.push(line);
  if (lines.length <= MAX_REGIONS) return lines;
  return [
    ...lines.slice(0, MAX_REGIONS),
    `… and ${(regions - MAX_REGIONS).toLocaleString('en-US')} more changed regions`,
  ];
}

/**
 * Text as it reads, on one line: line breaks and tabs as `\n`, `\r` and `\t`, every other
 * control or bidi character escaped by escapeTerminal.
 */
function shown(text: string): string {
  return escapeTerminal(text.replace(/[\n\r\t]/g, (ch) => LINE_ESCAPES[ch] ?? ch));
}

const LINE_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
