// `runback diff A B`: a semantic diff of two runs. The comparison is the
// SDK's diffRecords; this reads the files and prints the result.
import { diffRecords, type RecordDiff, type StepChange } from '@runback/diff';
import { verifyJson } from '@runback/verify';
import { escapeTerminal as t, makeStyle, useColor, type CommandIO } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { VALUE_WIDTH, formatChanges, preview } from '../format/changes.js';
import { parseRecordJson } from '../record-json.js';

const usage = `Usage: runback diff A B [--json]

Compare two records semantically: what the runs were asked and answered, not when or under
which ids. Steps (model, tool, env and reasoning events) are aligned so that an inserted or
removed step is reported once; a changed step shows its input and output differences as JSON
Pointer operations. Run ids, span ids, seq, timestamps, latency, _hash, metadata, digests and
provider-generated ids and times (id, tool_call_id, created, system_fingerprint inside model
calls; clock and UUID values; volatile HTTP headers) are ignored. Token and latency figures per
model are shown as deltas.

Options:
  --json       print the diff as JSON
  -h, --help   show this help

Exit status: 0 no semantic difference, 1 differences, 2 a file is not a readable record,
64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 2) {
    throw usageError(
      'USAGE_TWO_RECORDS',
      `expected two records A and B, got ${positionals.length}`,
      'Example: runback diff baseline.json candidate.json',
    );
  }
  const [pathA, pathB] = positionals as [string, string];
  const [a, b] = await Promise.all([readRecord(pathA, io), readRecord(pathB, io)]);
  const diff = diffRecords(a.value, b.value);
  if (values.json) {
    io.stdout(JSON.stringify({ a: a.about, b: b.about, ...diff }) + '\n');
  } else {
    io.stdout(formatDiff(diff, a.about, b.about, makeStyle(useColor(io))));
  }
  return diff.equal ? EXIT.ok : EXIT.invalid;
}

interface About {
  readonly file: string;
  readonly run_id: unknown;
  readonly name: unknown;
  readonly status: unknown;
  readonly events: number;
  /** Whether the record verifies as intact (schema through cassette). */
  readonly intact: boolean;
}

async function readRecord(
  path: string,
  io: CommandIO,
): Promise<{ value: { run?: unknown; events?: unknown }; about: About }> {
  let bytes: Uint8Array;
  try {
    bytes = await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${path}: ${messageOf(err)}`);
  }
  const value = parseRecordJson(bytes, path, 'DIFF_NOT_JSON');
  if (
    typeof value !== 'object' ||
    value === null ||
    !Array.isArray((value as { events?: unknown }).events)
  ) {
    throw new CliError(
      'DIFF_NOT_A_RECORD',
      `${path} is not a runback record: expected an object with an events array`,
      {
        exitCode: 2,
      },
    );
  }
  const record = value as { run?: Record<string, unknown>; events: unknown[] };
  return {
    value: record,
    about: {
      file: path,
      run_id: record.run?.['run_id'] ?? null,
      name: record.run?.['name'] ?? null,
      status: record.run?.['status'] ?? null,
      events: record.events.length,
      // From the bytes, not the parsed value: the same verdict (docs/spec.md §5), read by the
      // canonicalizing pass instead of re-serializing the object graph; on two 48 MB records
      // that was most of the command's time.
      intact: verifyJson(bytes).integrity,
    },
  };
}

type Style = ReturnType<typeof makeStyle>;

function formatDiff(diff: RecordDiff, a: About, b: About, style: Style): string {
  const lines: string[] = [];
  const side = (label: string, about: About) =>
    `  ${label}  ${t(about.file)}  ${t(String(about.run_id))} (${t(String(about.status))}, ${about.events} events)${about.intact ? '' : style.yellow('  does not verify as intact')}`;
  lines.push(side('a', a), side('b', b), '');

  for (const step of diff.steps) lines.push(...formatStep(step, style));
  const run = diff.run;
  if (run.status !== null || run.input.length + run.output.length + run.error.length > 0) {
    lines.push(`${style.yellow('~')} run`);
    if (run.status !== null)
      lines.push(
        `    status  ${t(JSON.stringify(run.status.a))} → ${t(JSON.stringify(run.status.b))}`,
      );
    lines.push(
      ...formatChanges('input', run.input, Infinity, style),
      ...formatChanges('output', run.output, Infinity, style),
      ...formatChanges('error', run.error, Infinity, style),
      '',
    );
  }

  if (diff.models.length > 0) {
    lines.push('Models (a → b)');
    for (const m of diff.models) {
      const tokens = `${m.a.total_tokens} → ${m.b.total_tokens} tokens (${signed(m.b.total_tokens - m.a.total_tokens)})`;
      const latency = `${Math.round(m.a.latency_ms)} → ${Math.round(m.b.latency_ms)} ms (${signed(Math.round(m.b.latency_ms - m.a.latency_ms))})`;
      lines.push(`  ${t(m.model)}  ${m.a.calls} → ${m.b.calls} calls  ${tokens}  ${latency}`);
    }
    lines.push('');
  }
  const c = diff.counts;
  lines.push(
    `${c.same} steps the same, ${c.changed} changed, ${c.added} added, ${c.removed} removed: ${
      diff.equal ? style.green('no semantic difference') : style.red('the runs differ')
    }`,
  );
  return lines.join('\n') + '\n';
}

function formatStep(step: StepChange, style: Style): string[] {
  const where =
    step.change === 'changed'
      ? `seq ${step.a?.seq} → ${step.b?.seq}`
      : step.change === 'added'
        ? `seq ${step.b?.seq} in b only`
        : `seq ${step.a?.seq} in a only`;
  const mark =
    step.change === 'added'
      ? style.green('+')
      : step.change === 'removed'
        ? style.red('-')
        : style.yellow('~');
  const head = `${mark} ${t(step.type)} ${t(step.name)}  ${style.dim(`(${where})`)}`;
  if (step.change !== 'changed') {
    return [
      head,
      `    input   ${preview(step.step?.input, VALUE_WIDTH)}`,
      `    output  ${preview(step.step?.output, VALUE_WIDTH)}`,
      '',
    ];
  }
  return [
    head,
    ...formatChanges('input', step.input, Infinity, style),
    ...formatChanges('output', step.output, Infinity, style),
    '',
  ];
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

export const command: Command = { usage, run };
