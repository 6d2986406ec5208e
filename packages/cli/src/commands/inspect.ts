// `runback inspect`: what a record says, readable in ten seconds — the run, its model and
// tool calls, token use, errors — and whether it holds up (verifyJson, without keys).
import { readJsonStrict, verifyJson } from '@runback/verify';
import { makeStyle, useColor, type CommandIO } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { formatSummary } from '../inspect/format.js';
import { summarizeRecord } from '../inspect/summarize.js';
import { recordBytesOf } from '../inspect/bundle.js';

const usage = `Usage: runback inspect FILE [--json]

Summarize a runback record: run name, id, status and timing; events by type; LLM calls and
tokens per model; tools used and their errors; env reads; events that carry an error; and
the chain status (verified without keys: the verdict, failed checks and the signer's key id).
FILE may be "-" for standard input.
A bundle from runback bundle (FILE.tar.gz) is summarized through its record.json.

Options:
  --json       print the summary as one JSON object
  -h, --help   show this help

inspect reports; it does not judge. It exits 0 once it has printed a summary, whatever the
verdict — gate on "runback verify --pubkey KEY" instead.

Exit status: 0 summarized, 1 the file is not JSON or not a JSON object, 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) {
    throw usageError(
      'USAGE_INPUT',
      positionals.length === 0
        ? 'expected a FILE to inspect (or "-" for standard input), got none'
        : `expected one FILE, got ${positionals.length}`,
    );
  }
  const path = positionals[0] as string;
  const name = path === '-' ? '(stdin)' : path;
  let input: Uint8Array;
  try {
    input = await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${name}: ${messageOf(err)}`);
  }
  // A bundle (runback bundle) is inspected through the record inside it.
  const { bytes, bundle } = await recordBytesOf(input, name);
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) {
    throw new CliError('INSPECT_NOT_JSON', `cannot read ${name} as JSON: ${parsed.error.message}`, {
      hint: 'A runback record is one JSON object (strict UTF-8, no duplicate member names).',
      details: { parse_error: parsed.error },
    });
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw new CliError(
      'INSPECT_NOT_RECORD',
      `${name} is not a runback record: expected a JSON object, got ${Array.isArray(parsed.value) ? 'an array' : parsed.value === null ? 'null' : `a ${typeof parsed.value}`}`,
    );
  }
  const summary = summarizeRecord(parsed.value, verifyJson(bytes));
  io.stdout(
    values.json
      ? JSON.stringify({ file: name, ...summary, ...(bundle === null ? {} : { bundle }) }) + '\n'
      : (bundle === null ? '' : `bundle ${bundle.root}/: ${bundle.files.join(', ')}\n`) +
          formatSummary(name, summary, makeStyle(useColor(io))),
  );
  return EXIT.ok;
}

export const command: Command = { usage, run };
