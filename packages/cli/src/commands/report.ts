// `runback report RECORD --format md|html [--framework eu-ai-act]`: a human summary of a run
// — what ran, models, tools, decisions, token cost and the verification result — and, with
// the framework, how the record bears on the EU AI Act's logging duties.
import { sha256Hex } from '@runback/canonical';
import { atomicWrite } from '@runback/sdk/fs';
import { readJsonStrict, verifyJson } from '@runback/verify';
import { loadTrust, TRUST_FLAG_OPTIONS } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import type { CommandIO } from '../log/io.js';
import { buildReport } from '../report/model.js';
import { renderReport, type ReportFormat } from '../report/render.js';

const usage = `Usage: runback report RECORD [--format md|html] [--framework eu-ai-act] [--out FILE]
                      [--pubkey PEM]... [--revoked PEM]... [--key K | --key-file F] [--json]

Write a human summary of a run: what ran, the models and tools it used, its decisions and
output, token use, errors, artifacts, and whether the record verifies (with the given keys
pinned). RECORD may be "-" for standard input. The report is deterministic: the same record
and keys give the same bytes.

Options:
  --format md|html        Markdown (default) or a self-contained HTML page
  --framework eu-ai-act   add how the record bears on the logging duties of the EU AI Act
                          (Articles 12, 19, 26), and what a record cannot show
  --out FILE              write the report to FILE, atomically (default: standard output)
  --pubkey PEM_FILE       pin a signer's public key (repeatable); also --revoked, --key, --key-file
  --json                  with --out, print {out, format, sha256, verdict}

A report describes; it does not judge: it is written whatever the verdict.
Exit status: 0 written, 1 RECORD is not JSON, 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', default: 'md' },
        framework: { type: 'string' },
        out: { type: 'string' },
        ...TRUST_FLAG_OPTIONS,
        json: { type: 'boolean', default: false },
      },
    },
    { hmacKey: true },
  );
  if (positionals.length !== 1)
    throw usageError('USAGE_INPUT', `expected one RECORD, got ${positionals.length}`);
  const format = values.format;
  if (format !== 'md' && format !== 'html')
    throw usageError(
      'USAGE_BAD_FORMAT',
      `expected --format md or html, got ${JSON.stringify(format)}`,
    );
  if (values.framework !== undefined && values.framework !== 'eu-ai-act') {
    throw usageError(
      'USAGE_BAD_FORMAT',
      `expected --framework eu-ai-act, got ${JSON.stringify(values.framework)}`,
    );
  }
  const path = positionals[0] as string;
  const trust = await loadTrust(values, io);
  const text = await reportText(path, format, values.framework === 'eu-ai-act', trust, io);
  if (values.out === undefined || values.out === '-') {
    io.stdout(text.report);
    return EXIT.ok;
  }
  await atomicWrite(values.out, text.report);
  const summary = {
    out: values.out,
    format,
    framework: values.framework ?? null,
    sha256: sha256Hex(text.report),
    verdict: text.verdict,
  };
  io.stdout(
    values.json
      ? JSON.stringify(summary) + '\n'
      : `Wrote the ${format} report of ${path} (${text.verdict}) to ${values.out}\n`,
  );
  return EXIT.ok;
}

/** Reads, verifies and renders one record. */
export async function reportText(
  path: string,
  format: ReportFormat,
  euAiAct: boolean,
  trust: Parameters<typeof verifyJson>[1],
  io: CommandIO,
): Promise<{ report: string; verdict: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${path}: ${messageOf(err)}`);
  }
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok)
    throw new CliError(
      'REPORT_RECORD_INVALID',
      `cannot read ${path} as JSON: ${parsed.error.message}`,
    );
  const verification = verifyJson(bytes, trust);
  const model = buildReport(parsed.value, verification);
  return {
    report: renderReport(model, format, euAiAct ? { framework: 'eu-ai-act' } : {}),
    verdict: verification.verdict,
  };
}

export const command: Command = { usage, run };
