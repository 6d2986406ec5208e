// The human layout of `runback inspect`: a header line, then short sections with aligned
// columns. Every string taken from the record is made safe to print first: a record is
// untrusted input, and control characters in it must not drive the reader's terminal.
import { escapeTerminal, type Style } from '@runback/verify-cli';
import type { RecordSummary } from './summarize.js';

/** Formats a summary for a person; `name` is the file it came from. */
export function formatSummary(name: string, s: RecordSummary, style: Style): string {
  const out: string[] = [];
  const title = s.run.name === null ? '(unnamed run)' : safe(s.run.name);
  out.push(
    `${style.bold(title)}  ${style.dim(`${safe(s.run.run_id ?? '(no run id)')} · ${safe(name)}`)}`,
  );
  out.push('');

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
  out.push(
    ...table([
      ['status', statusText],
      ['started', safe(s.run.started_at ?? '(unknown)')],
      ['ended', safe(s.run.ended_at ?? '(not ended)')],
      ['duration', s.run.duration_ms === null ? '(unknown)' : formatDuration(s.run.duration_ms)],
      ['events', `${s.event_count}${types === '' ? '' : `  ${style.dim(`(${types})`)}`}`],
    ]).map((line) => `  ${line}`),
  );

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

  out.push(
    '',
    section(
      style,
      'Tools',
      s.tools.reduce((n, t) => n + t.calls, 0),
    ),
  );
  if (s.tools.length > 0) {
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

  out.push('', style.bold('Chain'));
  const c = s.chain;
  const verdict =
    c.verdict === 'valid'
      ? style.green('VALID')
      : c.verdict === 'unverified'
        ? style.yellow('UNVERIFIED')
        : style.red('INVALID');
  const checks = (['schema', 'consistent', 'chain', 'digest', 'cassette'] as const)
    .map((check) => `${c.checks[check] ? style.green('✓') : style.red('✗')} ${check}`)
    .join('  ');
  const signer =
    c.signer === null
      ? ''
      : ` (${safe(c.signer.alg)}${c.signer.key_id === null ? '' : `, key ${safe(c.signer.key_id)}`})`;
  const rows = [
    [
      'verdict',
      `${style.bold(verdict)}${c.verdict === 'unverified' ? style.dim('  no key pinned here; prove the signer with runback verify --pubkey') : ''}`,
    ],
    ['checks', checks],
    ['signature', `${c.checks.signature}${signer}`],
  ];
  out.push(...indent(table(rows)));
  for (const failed of c.failed) {
    const first = c.errors.find((e) => e.check === failed);
    if (first !== undefined) out.push(`    ${style.red(`${failed}: ${safe(first.message, 200)}`)}`);
  }
  return out.join('\n') + '\n';
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
