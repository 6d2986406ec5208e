// `runback sign`: seal a record (recompute every _hash, both digests and the manifest) and
// sign it — then verify the output with the signing key pinned, and refuse to write a record
// that would not verify. Sealing and verification are the libraries'; this only wires them up.
import { sealRecord, type SealedRecord } from '@runback/sign';
import { verifyJson, type VerifyResult } from '@runback/verify';
import { makeStyle, useColor, type CommandIO } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, isCodedDataError, messageOf, usageError } from '../errors.js';
import { generatedAtOf } from '../sign/generated-at.js';
import { readSignInput, type SignInput } from '../sign/input.js';
import { SIGNER_OPTIONS, loadSigner, type LoadedSigner } from '../sign/signer.js';
import { signatureSummary, writeVerified, type SignatureSummary } from '../sign/write-verified.js';

const usage = `Usage: runback sign INPUT [--out FILE] [--key PEM_FILE | --hmac-key K | --hmac-key-file F]
                    [--generated-at ISO] [--json]

Seal and sign a record. INPUT ("-" for standard input) is JSON: an unsealed record
{ "run": {...}, "events": [...] } or a full record. Every event _hash, the content and
cassette digests and the manifest are recomputed; then the record is signed, verified with
the signing key pinned, and written only if it verifies.

Options:
  --out FILE           write the record to FILE, atomically (default: standard output)
  --key PEM_FILE       sign with this Ed25519 private key (PKCS#8 PEM, from runback keygen)
  --hmac-key K         sign with HMAC-SHA256 under the shared secret K (visible to other
                       users in the process list: prefer --hmac-key-file)
  --hmac-key-file F    read the HMAC secret from F (one trailing newline is ignored)
  --generated-at ISO   manifest.generated_at, e.g. 2026-06-14T02:47:13.950Z (default: now)
  --json               with --out, print a JSON summary of what was written
  -h, --help           show this help

Without a key the record is sealed but unsigned: runback verify will call it unverified.
Without --out the record goes to standard output and the report to standard error.

Exit status: 0 written, 1 invalid input (not JSON, not a record, or a record that would not
verify, e.g. a run summary that contradicts its events) or could not write, 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      ...SIGNER_OPTIONS,
      'generated-at': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) {
    throw usageError(
      'USAGE_INPUT',
      positionals.length === 0
        ? 'expected an INPUT file (or "-" for standard input), got none'
        : `expected one INPUT file, got ${positionals.length}`,
    );
  }
  const inputPath = positionals[0] as string;
  const out = values.out === undefined || values.out === '-' ? undefined : values.out;
  const generatedAt = generatedAtOf(values['generated-at']);
  if (inputPath === '-' && (values.key === '-' || values['hmac-key-file'] === '-')) {
    throw usageError(
      'USAGE_STDIN_TWICE',
      'expected standard input ("-") to be read once, got it for both INPUT and the key',
    );
  }

  const loaded = await loadSigner(values, io);
  const inputName = inputPath === '-' ? '(stdin)' : inputPath;
  let bytes: Uint8Array;
  try {
    bytes = await io.readInput(inputPath);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${inputName}: ${messageOf(err)}`);
  }
  const input = readSignInput(bytes, inputName);
  const warnings = inputWarnings(input, bytes, loaded);

  let record: SealedRecord;
  try {
    record = sealRecord(
      { run: input.run, events: input.events },
      { generatedAt, signer: loaded.signer },
    );
  } catch (err) {
    if (!isCodedDataError(err)) throw err;
    throw new CliError('SIGN_CANNOT_SEAL', `cannot seal ${inputName}: ${err.message}`, {
      hint: 'Fix that member of the input and run runback sign again.',
      details: { cause: err.code },
    });
  }
  const result = await writeVerified(record, loaded, io, {
    out,
    refuse: (failed) => notVerifiable(inputName, failed),
    writeFailed: 'SIGN_WRITE_FAILED',
  });

  const report = reportOf(record, result, out, warnings);
  if (values.json) {
    if (out !== undefined) io.stdout(JSON.stringify(report) + '\n');
    for (const warning of warnings) io.stderr(`runback sign: warning: ${warning}\n`);
  } else {
    const write = out === undefined ? io.stderr : io.stdout;
    write(formatReport(report, makeStyle(useColor(io))));
  }
  return EXIT.ok;
}

function notVerifiable(name: string, result: VerifyResult): CliError {
  const lines = result.errors.map(
    (e) =>
      `  ${e.check}: ${e.event_index === undefined || e.message.includes(`event ${e.event_index}`) ? '' : `event ${e.event_index}: `}${e.message}`,
  );
  return new CliError(
    'SIGN_NOT_VERIFIABLE',
    `refusing to write: the sealed record of ${name} would not verify (${result.verdict})\n${lines.join('\n')}`,
    {
      hint: 'Fix the input so the run summary agrees with its events (run_id, status, name, times, output) and run runback sign again.',
      details: { verification: result },
    },
  );
}

/** Things worth saying about the input before its content is sealed under a new signature. */
function inputWarnings(input: SignInput, bytes: Uint8Array, loaded: LoadedSigner): string[] {
  const warnings: string[] = [];
  if (input.ignoredMembers.length > 0) {
    warnings.push(
      `ignored top-level member(s) ${input.ignoredMembers.map((m) => JSON.stringify(m)).join(', ')}: only run and events are sealed`,
    );
  }
  if (input.hadManifest) {
    // From the bytes (the same verdict as verifying the parsed value, docs/spec.md §5): the
    // canonicalizing pass reads them without copying and re-serializing the object graph.
    const before = verifyJson(bytes);
    const broken = (['schema', 'consistent', 'chain', 'digest', 'cassette'] as const).filter(
      (check) => !before.checks[check],
    );
    if (broken.length > 0) {
      warnings.push(
        `the input was a sealed record that no longer verifies (${broken.join(', ')}): the new seal covers its current, edited content`,
      );
    }
    if (before.checks.signature !== 'unsigned' && loaded.signer === undefined) {
      warnings.push('the input was signed; no key was given, so the output is unsigned');
    }
  }
  return warnings;
}

interface SignReport {
  readonly out: string | null;
  readonly run_id: string;
  readonly event_count: number;
  readonly generated_at: string;
  readonly content_digest: string;
  readonly cassette_digest: string;
  readonly signed: boolean;
  readonly signature: SignatureSummary;
  readonly verdict: VerifyResult['verdict'];
  readonly warnings: readonly string[];
}

function reportOf(
  record: SealedRecord,
  result: VerifyResult,
  out: string | undefined,
  warnings: readonly string[],
): SignReport {
  const m = record.manifest;
  return {
    out: out ?? null,
    run_id: m.run_id,
    event_count: m.event_count,
    generated_at: m.generated_at,
    content_digest: m.content_digest,
    cassette_digest: m.replay.cassette_digest,
    signed: m.signed,
    signature: signatureSummary(record),
    verdict: result.verdict,
    warnings,
  };
}

function formatReport(report: SignReport, style: ReturnType<typeof makeStyle>): string {
  const where = report.out ?? 'standard output';
  const lines = [
    `${report.signed ? style.green('✓') : style.yellow('!')} Sealed ${report.run_id} (${report.event_count} event${report.event_count === 1 ? '' : 's'}) → ${where}`,
  ];
  if (report.signature === null) {
    lines.push(
      `  signature  ${style.yellow('none')} ${style.dim('(no --key, --hmac-key or --hmac-key-file: runback verify will report it unverified)')}`,
    );
  } else {
    lines.push(
      `  signature  ${report.signature.alg}${report.signature.key_id === undefined ? '' : `, key ${report.signature.key_id}`}`,
    );
  }
  lines.push(
    report.signed
      ? `  verified   ${style.green(report.verdict)} ${style.dim('(with the signing key pinned)')}`
      : `  verified   intact ${style.dim(`(verdict ${report.verdict} until it is signed)`)}`,
  );
  for (const warning of report.warnings) lines.push(`  ${style.yellow('warning')}    ${warning}`);
  return lines.join('\n') + '\n';
}

export const command: Command = { usage, run };
