// The human layout of `runback inspect`: a header line, then short sections with aligned
// columns. Every string taken from the record is made safe to print first: a record is
// untrusted input, and control characters in it must not drive the reader's terminal.
import { escapeTerminal, type Style } from '@runback/verify-cli';
import { baseName } from './program.js';
import type { ProgramFacts, RecordSummary } from './summarize.js';

/** What else the summary says besides the record itself. */
export interface SummaryContext {
  /** --pubkey, --key or --hmac-key-file was given: UNVERIFIED then means "not by your keys". */
  readonly keys: boolean;
  /** The bundle the record came from, listed after the verdict. */
  readonly bundle?: { readonly root: string; readonly files: readonly string[] } | null;
}

/**
 * Formats a summary for a person; `name` is the file it came from. The verdict comes first:
 * a record that does not verify says so before any of its content is shown.
 */
export function formatSummary(
  name: string,
  s: RecordSummary,
  style: Style,
  context: SummaryContext = { keys: false },
): string {
  const out: string[] = [...verdictLines(s, style, context), ''];
  if (context.bundle !== undefined && context.bundle !== null) {
    const { root, files } = context.bundle;
    out.push(`bundle ${safe(root)}/: ${files.map((f) => safe(f)).join(', ')}`, '');
  }
  // A program recorded without --name is named after its command (node); its script says more.
  const command = s.program?.argv[0];
  const named =
    s.program?.name !== null &&
    s.program?.name !== undefined &&
    (s.run.name === null || (command !== undefined && s.run.name === baseName(command)))
      ? s.program.name
      : s.run.name;
  const title = named === null ? '(unnamed run)' : safe(named);
  out.push(
    `${style.bold(title)}  ${style.dim(`${safe(s.run.run_id ?? '(no run id)')} · ${safe(name)}`)}`,
  );

  const status = s.run.status === null ? '(none)' : safe(s.run.status);
  const statusText =
    status === 'success'
      ? style.green(status)
      : status === 'error'
        ? style.red(status)
        : style.yellow(status);
  const types = Object.entries(s.events_by_type)
    .map(([type, n]) => `${safe(type)} ${n}`)
    .join(' · ');
  const rows: string[][] = [
    ['status', statusText],
    ['started', safe(s.run.started_at ?? '(unknown)')],
    ['ended', safe(s.run.ended_at ?? '(not ended)')],
    ['duration', s.run.duration_ms === null ? '(unknown)' : formatDuration(s.run.duration_ms)],
    ['events', `${s.event_count}${types === '' ? '' : `  ${style.dim(`(${types})`)}`}`],
  ];
  const p = s.program;
  if (p === null) {
    rows.push(['input', value(s.run.input)]);
    if (s.run.error !== null) rows.push(['error', style.red(errorText(s.run.error))]);
    else rows.push(['output', value(s.run.output)]);
  } else {
    // A program recorded by runback record: its script, exit status and output.
    rows.push([
      'program',
      `${style.bold(safe(p.name ?? '(unknown)'))}  ${style.dim(safe(p.argv.join(' '), 100))}`,
    ]);
    rows.push(['exit', exitText(p, s.run.error, style)]);
    rows.push(['stdout', streamText(p.stdout, p.stdout_bytes)]);
    if (p.stderr !== null && p.stderr !== '')
      rows.push(['stderr', streamText(p.stderr, p.stderr_bytes)]);
  }
  if (s.answer !== null) rows.push(['answer', safe(oneLine(s.answer), 160)]);
  out.push(...indent(table(rows)));

  out.push('', ...toolCallLines(s, style));

  out.push('', section(style, 'LLM calls', s.llm.calls));
  if (s.llm.models.length > 0) {
    const rows = s.llm.models.map((m) => [
      safe(m.model),
      num(m.calls),
      num(m.input_tokens),
      num(m.output_tokens),
      num(m.total_tokens),
      m.errors > 0 ? style.red(num(m.errors)) : num(m.errors),
    ]);
    if (s.llm.models.length > 1)
      rows.push([
        'total',
        num(s.llm.calls),
        num(s.llm.input_tokens),
        num(s.llm.output_tokens),
        num(s.llm.total_tokens),
        num(s.llm.models.reduce((n, m) => n + m.errors, 0)),
      ]);
    out.push(
      ...indent(
        table(
          [['MODEL', 'CALLS', 'INPUT', 'OUTPUT', 'TOTAL', 'ERRORS'].map(style.dim), ...rows],
          [false, true, true, true, true, true],
        ),
      ),
    );
  }

  if (s.tools.length > 0) {
    out.push(
      '',
      section(
        style,
        'Tools',
        s.tools.reduce((n, t) => n + t.calls, 0),
      ),
    );
    const rows = s.tools.map((t) => [
      safe(t.name),
      num(t.calls),
      t.errors > 0 ? style.red(num(t.errors)) : num(t.errors),
    ]);
    out.push(
      ...indent(table([['TOOL', 'CALLS', 'ERRORS'].map(style.dim), ...rows], [false, true, true])),
    );
  }

  const envEntries = Object.entries(s.env);
  out.push(
    '',
    section(
      style,
      'Env reads',
      envEntries.reduce((n, [, c]) => n + c, 0),
    ),
  );
  if (envEntries.length > 0) {
    out.push(
      ...indent(
        table(
          [
            ['KIND', 'READS'].map(style.dim),
            ...envEntries.map(([kind, n]) => [safe(kind), num(n)]),
          ],
          [false, true],
        ),
      ),
    );
  }

  out.push('', section(style, 'Errors', s.errors.length));
  if (s.errors.length > 0) {
    const rows = s.errors.map((e) => [
      s.errors.some((x) => x.seq !== null) ? `#${e.seq ?? '?'}` : `[${e.event_index}]`,
      safe(e.subject === null ? e.type : `${e.type} ${e.subject}`),
      style.red(safe(e.name === null ? e.message : `${e.name}: ${e.message}`, 160)),
    ]);
    out.push(...indent(table(rows)));
  }

  out.push('', style.bold('Checks'));
  const c = s.chain;
  const checks = (['schema', 'consistent', 'chain', 'digest', 'cassette'] as const)
    .map((check) => `${c.checks[check] ? style.green('✓') : style.red('✗')} ${check}`)
    .join('  ');
  const signer =
    c.signer === null
      ? ''
      : ` (${safe(c.signer.alg)}${c.signer.key_id === null ? '' : `, key ${safe(c.signer.key_id)}`})`;
  out.push(
    ...indent(
      table([
        ['checks', checks],
        ['signature', `${c.checks.signature}${signer}`],
      ]),
    ),
  );
  return out.join('\n') + '\n';
}

/** The verdict, first: VALID / UNVERIFIED / INVALID, who signed, and what failed. */
function verdictLines(s: RecordSummary, style: Style, trust: SummaryContext): string[] {
  const c = s.chain;
  const signer =
    c.signer === null
      ? 'unsigned'
      : `signed ${safe(c.signer.alg)}${c.signer.key_id === null ? '' : ` by key ${safe(c.signer.key_id)}`}`;
  if (c.verdict === 'valid') {
    return [
      `${style.bold(style.green('VALID'))}  intact and ${signer}, a key you trust (${c.signer?.alg === 'HMAC-SHA256' ? 'the HMAC key given' : 'pinned with --pubkey'})`,
    ];
  }
  if (c.verdict === 'unverified') {
    const why =
      c.checks.signature === 'unsigned'
        ? 'but unsigned: nothing proves who wrote it'
        : trust.keys
          ? `but ${signer}, which is not a key you gave`
          : `and ${signer}; pass --pubkey SIGNER.pub.pem (or --key for HMAC) to prove the signer`;
    return [
      `${style.bold(style.yellow('UNVERIFIED'))}  intact (chain and digests check out) ${why}`,
    ];
  }
  const lines = [
    `${style.bold(style.red('INVALID'))}  this record does not verify (${c.failed.length === 0 ? 'see the checks' : c.failed.join(', ')} failed): it was changed or damaged after it was written`,
  ];
  for (const failed of c.failed) {
    const first = c.errors.find((e) => e.check === failed);
    if (first !== undefined) lines.push(`  ${style.red(`${failed}: ${safe(first.message, 200)}`)}`);
  }
  lines.push(
    style.yellow('  What follows is what the file claims, not a trustworthy account of the run.'),
  );
  return lines;
}

const SHOWN_TOOL_CALLS = 20;

/** Each tool call with its input and what came back, in the order of the run. */
function toolCallLines(s: RecordSummary, style: Style): string[] {
  const calls = s.tool_calls;
  const requested = calls.length > 0 && calls.every((c) => c.source === 'model_request');
  const lines = [
    `${section(style, 'Tool calls', calls.length)}${requested ? style.dim('  as the model requested them (no tool events: results from the next request)') : ''}`,
  ];
  const numbered = calls.some((c) => c.seq !== null);
  for (const call of calls.slice(0, SHOWN_TOOL_CALLS)) {
    const at = numbered ? `#${call.seq ?? '?'}` : `[${call.event_index}]`;
    const head = `  ${style.dim(at)}  ${style.bold(safe(call.tool_name))}  ${value(call.input, 100)}`;
    const failed = call.error !== null && call.error !== undefined;
    const result = failed
      ? style.red(`✗ ${errorText(call.error)}`)
      : call.output === null && call.source === 'model_request'
        ? style.dim('(no result in the record)')
        : `→ ${value(call.output, 120)}`;
    lines.push(head, `      ${result}`);
    if (call.policy_block !== null && call.policy_block !== undefined) {
      lines.push(`      ${style.yellow(`policy ${value(call.policy_block, 140)}`)}`);
    }
  }
  if (calls.length > SHOWN_TOOL_CALLS) {
    lines.push(
      style.dim(
        `  … ${calls.length - SHOWN_TOOL_CALLS} more (runback inspect --json lists them all)`,
      ),
    );
  }
  return lines;
}

function exitText(p: ProgramFacts, error: unknown, style: Style): string {
  if (p.exit_code === null && p.signal === null) {
    return style.red(`did not run${error === null ? '' : `: ${errorText(error)}`}`);
  }
  if (p.signal !== null) return style.red(`ended by ${safe(p.signal)}`);
  return p.exit_code === 0 ? style.green('0') : style.red(String(p.exit_code));
}

function streamText(text: string | null, bytes: number | null): string {
  if (text === null || text === '')
    return bytes === null || bytes === 0 ? '(empty)' : `(${num(bytes)} bytes, not kept as text)`;
  const shown = safe(oneLine(text), 160);
  return bytes !== null && bytes > new TextEncoder().encode(text).length
    ? `${shown}  (${num(bytes)} bytes in all)`
    : shown;
}

/** An error value: `Name: message`, else its JSON. */
function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && !Array.isArray(error)) {
    const e = error as Record<string, unknown>;
    const message = typeof e['message'] === 'string' ? e['message'] : undefined;
    const name = typeof e['name'] === 'string' ? e['name'] : undefined;
    if (message !== undefined)
      return safe(name === undefined ? message : `${name}: ${message}`, 160);
  }
  return value(error, 160);
}

/** Any record value on one line: a string as itself, anything else as compact JSON. */
function value(v: unknown, max = 120): string {
  if (v === null || v === undefined) return '(none)';
  if (typeof v === 'string') return safe(oneLine(v), max);
  // Values parsed from JSON always stringify; anything else shows as its type.
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch {
    text = undefined;
  }
  return safe(text ?? `(${typeof v})`, max);
}

/** Text on one line: line breaks become " ⏎ ", trailing white space goes. */
function oneLine(text: string): string {
  return text.trimEnd().replace(/\r?\n/g, ' ⏎ ');
}

function section(style: Style, title: string, n: number): string {
  return `${style.bold(title)} ${style.dim(`(${n})`)}`;
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => `  ${line}`);
}

/** Aligned columns, two spaces apart; `right[i]` right-aligns column i (numbers). */
function table(rows: readonly (readonly string[])[], right: readonly boolean[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))));
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - visibleLength(cell));
        if (right[i] === true) return pad + cell;
        return i === row.length - 1 ? cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** Length as displayed: ANSI colour codes take no room. */
function visibleLength(text: string): number {
  return [...text.replace(ANSI_COLOUR, '')].length;
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}

/** 850 ms, 2.95 s, 3m 05s, 1h 02m. */
export function formatDuration(ms: number): string {
  if (ms < 0) return `${ms} ms (ends before it starts)`;
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2).replace(/\.?0+$/, '')} s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}

/**
 * Text from the record, safe for a terminal: control characters (C0, DEL, C1) and bidi
 * overrides are shown as \u escapes, and long text is cut at `max` characters.
 */
export function safe(text: string, max = 80): string {
  const cleaned = escapeTerminal(text);
  const chars = [...cleaned];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : cleaned;
}
