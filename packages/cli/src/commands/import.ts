// `runback import --otlp TRACES.json`: OpenTelemetry GenAI spans (OTLP/JSON, from any tool)
// become a runback record, sealed — and signed with --key / --hmac-key like runback sign —
// then verified with the signing key pinned, and written only if it verifies. The conversion
// is @runback/otlp's; sealing and verification are the trust core's.
import { importOtlp, OtlpError, type OtlpImport } from '@runback/otlp';
import { sealRecord, type SealedRecord } from '@runback/sign';
import type { VerifyResult } from '@runback/verify';
import { escapeTerminal, makeStyle, useColor } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, isCodedDataError, messageOf, usageError } from '../errors.js';
import type { CommandIO } from '../log/io.js';
import { generatedAtOf } from '../sign/generated-at.js';
import { SIGNER_OPTIONS, loadSigner } from '../sign/signer.js';
import { signatureSummary, writeVerified, type SignatureSummary } from '../sign/write-verified.js';

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

const usage = `Usage: runback import --otlp TRACES.json [--out FILE] [--key PEM_FILE | --hmac-key K | --hmac-key-file F]
                      [--trace-id ID] [--run-id ID] [--generated-at ISO] [--max-bytes N] [--json]

Turn OpenTelemetry traces with GenAI spans into a runback record. TRACES.json ("-" for
standard input) is OTLP/JSON: one ExportTraceServiceRequest, or one per line (the
Collector's file exporter). One trace becomes one record: each model-call span (chat,
text_completion, generate_content, embeddings) becomes an llm event, each execute_tool span
a tool event, other GenAI spans "span" events; spans without GenAI attributes (HTTP, database)
are left out, and each event hangs under its nearest GenAI ancestor. A top-level invoke_agent
span is the run. A trace written by runback export --otlp is read back exactly: the record
gets its original content and cassette digests.

The record is sealed and, with a key, signed; it is verified with the signing key pinned
and written only if it verifies. A signature proves who imported the trace, not that the
trace is true: the spans are only as trustworthy as the tool that wrote them.

Options:
  --otlp               the input is OTLP/JSON traces (the one import format; required)
  --out FILE           write the record to FILE, atomically (default: standard output)
  --key PEM_FILE       sign with this Ed25519 private key (from runback keygen)
  --hmac-key K         sign with HMAC-SHA256 under K (prefer --hmac-key-file)
  --hmac-key-file F    read the HMAC secret from F (one trailing newline is ignored)
  --trace-id ID        the trace to import when the file holds several (32 hex digits)
  --run-id ID          the record's run id (default: otlp_ + the trace id)
  --generated-at ISO   manifest.generated_at, e.g. 2026-06-14T02:47:13.950Z (default: now)
  --max-bytes N        refuse input larger than N bytes (default: 64 MiB)
  --json               with --out, print a JSON summary of what was written
  -h, --help           show this help

Exit status: 0 written, 1 the input is not OTLP/JSON traces with GenAI spans (codes
OTLP_NOT_JSON, OTLP_BAD_FIELD, OTLP_NO_GENAI_SPANS, OTLP_MULTIPLE_TRACES, OTLP_TOO_LARGE, …),
the record would not verify, or could not write, 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      otlp: { type: 'boolean', default: false },
      out: { type: 'string' },
      ...SIGNER_OPTIONS,
      'trace-id': { type: 'string' },
      'run-id': { type: 'string' },
      'generated-at': { type: 'string' },
      'max-bytes': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.otlp)
    throw usageError('USAGE_NO_FORMAT', 'expected --otlp (the import format), got no format');
  if (positionals.length !== 1)
    throw usageError('USAGE_INPUT', `expected one TRACES.json, got ${positionals.length}`);
  const path = positionals[0] as string;
  const name = path === '-' ? '(stdin)' : path;
  const traceId = values['trace-id'];
  if (traceId !== undefined && !/^[0-9a-fA-F]{32}$/.test(traceId))
    throw usageError(
      'USAGE_BAD_TRACE_ID',
      `expected --trace-id to be 32 hex digits, got ${JSON.stringify(traceId)}`,
    );
  const runId = values['run-id'];
  if (runId !== undefined && runId.trim() === '')
    throw usageError(
      'USAGE_BAD_ARGUMENTS',
      'expected --run-id to be a non-empty id, got an empty one',
    );
  const maxBytes = limitOf(values['max-bytes']);
  const generatedAt = generatedAtOf(values['generated-at']);
  if (path === '-' && (values.key === '-' || values['hmac-key-file'] === '-'))
    throw usageError(
      'USAGE_STDIN_TWICE',
      'expected standard input ("-") to be read once, got it for both TRACES.json and the key',
    );
  const loaded = await loadSigner(values, io);

  let bytes: Uint8Array;
  try {
    bytes = await io.readInput(path, { maxBytes });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'INPUT_TOO_LARGE')
      throw new CliError('OTLP_TOO_LARGE', `cannot import ${name}: ${messageOf(err)}`);
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${name}: ${messageOf(err)}`);
  }
  let imported: OtlpImport;
  try {
    imported = importOtlp(bytes, {
      maxBytes,
      ...(traceId === undefined ? {} : { traceId }),
      ...(runId === undefined ? {} : { runId }),
    });
  } catch (err) {
    if (err instanceof OtlpError)
      throw new CliError(err.code, `cannot import ${name}: ${err.message}`);
    throw err;
  }

  let record: SealedRecord;
  try {
    record = sealRecord(
      { run: imported.run, events: imported.events },
      { generatedAt, signer: loaded.signer },
    );
  } catch (err) {
    if (!isCodedDataError(err)) throw err;
    throw new CliError('IMPORT_CANNOT_SEAL', `cannot seal the record of ${name}: ${err.message}`, {
      details: { cause: err.code },
    });
  }
  const out = values.out === undefined || values.out === '-' ? undefined : values.out;
  const result = await writeVerified(record, loaded, io, {
    out,
    refuse: (failed) =>
      new CliError(
        'IMPORT_NOT_VERIFIABLE',
        `refusing to write: the record built from ${name} would not verify (${failed.verdict})\n${failed.errors.map((e) => `  ${e.check}: ${e.message}`).join('\n')}`,
        { details: { verification: failed } },
      ),
    writeFailed: 'IMPORT_WRITE_FAILED',
  });
  const report = reportOf(record, imported, result, out);
  if (values.json) {
    if (out !== undefined) io.stdout(JSON.stringify(report) + '\n');
  } else {
    (out === undefined ? io.stderr : io.stdout)(formatReport(report, makeStyle(useColor(io))));
  }
  return EXIT.ok;
}

function limitOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_BYTES;
  const n = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw usageError(
      'USAGE_BAD_LIMIT',
      `expected --max-bytes to be a whole number of bytes >= 1, got ${JSON.stringify(text)}`,
    );
  return n;
}

interface ImportReport {
  readonly out: string | null;
  readonly run_id: string;
  readonly trace_id: string;
  readonly source: OtlpImport['source'];
  readonly event_count: number;
  readonly genai_span_count: number;
  readonly ignored_span_count: number;
  readonly content_digest: string;
  readonly cassette_digest: string;
  /** For a runback export: whether the record has the digests the export's root span named. */
  readonly matches_export: boolean | null;
  readonly signed: boolean;
  readonly signature: SignatureSummary;
  readonly verdict: VerifyResult['verdict'];
  /** A runback export's spans whose GenAI attributes differ from their events (edited). */
  readonly warnings: readonly string[];
}

function reportOf(
  record: SealedRecord,
  imported: OtlpImport,
  result: VerifyResult,
  out: string | undefined,
): ImportReport {
  const m = record.manifest;
  const exported = imported.exported;
  return {
    out: out ?? null,
    run_id: m.run_id,
    trace_id: imported.traceId,
    source: imported.source,
    event_count: m.event_count,
    genai_span_count: imported.genaiSpanCount,
    ignored_span_count: imported.ignoredSpanCount,
    content_digest: m.content_digest,
    cassette_digest: m.replay.cassette_digest,
    matches_export:
      exported?.contentDigest === undefined
        ? null
        : exported.contentDigest === m.content_digest &&
          exported.cassetteDigest === m.replay.cassette_digest,
    signed: m.signed,
    signature: signatureSummary(record),
    verdict: result.verdict,
    warnings: imported.differences.map(
      (d) => `${d} (the record holds the exported event; the attribute was changed after export)`,
    ),
  };
}

function formatReport(r: ImportReport, style: ReturnType<typeof makeStyle>): string {
  const lines = [
    `${r.signed ? style.green('✓') : style.yellow('!')} Imported trace ${r.trace_id} as ${escapeTerminal(r.run_id)} (${r.event_count} event${r.event_count === 1 ? '' : 's'}) → ${escapeTerminal(r.out ?? 'standard output')}`,
    `  read       ${r.genai_span_count} GenAI span${r.genai_span_count === 1 ? '' : 's'}${r.ignored_span_count === 0 ? '' : `, left out ${r.ignored_span_count} other span${r.ignored_span_count === 1 ? '' : 's'}`} ${style.dim(r.source === 'runback' ? '(a runback export: its exact events)' : '(from GenAI attributes)')}`,
  ];
  if (r.matches_export !== null) {
    lines.push(
      r.matches_export
        ? `  digests    ${style.green('match')} the exported record's`
        : `  digests    ${style.yellow('differ')} from those the export's root span names (its events were edited)`,
    );
  }
  lines.push(
    r.signature === null
      ? `  signature  ${style.yellow('none')} ${style.dim('(no --key, --hmac-key or --hmac-key-file: runback verify will report it unverified)')}`
      : `  signature  ${r.signature.alg}${r.signature.key_id === undefined ? '' : `, key ${r.signature.key_id}`}`,
  );
  lines.push(
    r.signed
      ? `  verified   ${style.green(r.verdict)} ${style.dim('(with the signing key pinned)')}`
      : `  verified   intact ${style.dim(`(verdict ${r.verdict} until it is signed)`)}`,
  );
  for (const warning of r.warnings)
    lines.push(`  ${style.yellow('warning')}    ${escapeTerminal(warning)}`);
  return lines.join('\n') + '\n';
}

export const command: Command = { usage, run };
