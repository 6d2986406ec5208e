// `runback verify` for evidence beyond one record: bundles (FILE.tar.gz), log proofs
// (--proof, --log-key, --witness), anchors (--anchors heads.jsonl), an expected head
// (--expect-head) and release manifests (--manifest). A thin adapter: it reads the files and
// keys, calls @runback/bundle's verifyEvidence (which verifies the record through
// @runback/verify), prints, and maps verdicts to the exit statuses of spec §8.
import { dirname, join } from 'node:path';
import { verifyEvidence, type EvidenceResult } from '@runback/bundle';
import { assertTrustPolicy } from '@runback/verify';
import {
  exitCodeOf,
  formatReport,
  loadTrust,
  makeStyle,
  TRUST_FLAG_OPTIONS,
  useColor,
} from '@runback/verify-cli';
import { parseCommandArgs } from '../command.js';
import { EXIT, messageOf, usageError } from '../errors.js';
import type { CommandIO } from '../log/io.js';
import { readPublicKey } from '../log/keys.js';
import { safe } from '../log/output.js';

const HEX64 = /^[0-9a-f]{64}$/;

export async function runEvidenceVerify(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        ...TRUST_FLAG_OPTIONS,
        proof: { type: 'string' },
        'log-key': { type: 'string' },
        witness: { type: 'string', multiple: true, default: [] },
        anchors: { type: 'string' },
        'expect-head': { type: 'string' },
        manifest: { type: 'string' },
        report: { type: 'string', multiple: true, default: [] },
      },
    },
    { hmacKey: true },
  );
  if (positionals.length === 0)
    throw usageError('USAGE_INPUT', 'expected at least one FILE, got none');
  const expectHead = values['expect-head'];
  if (expectHead !== undefined && !HEX64.test(expectHead)) {
    throw usageError(
      'USAGE_BAD_ARGUMENTS',
      `expected --expect-head to be 64 lowercase hex digits, got ${JSON.stringify(expectHead)}`,
    );
  }
  if (values.proof !== undefined && values['log-key'] === undefined) {
    throw usageError(
      'USAGE_MISSING_KEY',
      'expected --log-key LOG_PUBLIC_KEY with --proof, got none',
      'A proof is only as good as the log key it is checked against.',
    );
  }
  if (values.proof !== undefined && positionals.length > 1)
    throw usageError('USAGE_INPUT', `expected one FILE with --proof, got ${positionals.length}`);
  const trust = await loadTrust(values, io);
  try {
    assertTrustPolicy(trust);
  } catch (err) {
    throw usageError('USAGE_BAD_KEY', messageOf(err));
  }
  const logKey =
    values['log-key'] === undefined
      ? undefined
      : await readPublicKey('--log-key', values['log-key'], io);
  const witnessKeys: Uint8Array[] = [];
  for (const path of values.witness) witnessKeys.push(await readPublicKey('--witness', path, io));
  const proof = values.proof === undefined ? undefined : await read(io, values.proof, '--proof');
  const anchors =
    values.anchors === undefined ? undefined : await read(io, values.anchors, '--anchors');
  const anchorsSha256 =
    values.anchors === undefined ? undefined : await publishedDigest(io, values.anchors);
  const manifest =
    values.manifest === undefined ? undefined : await read(io, values.manifest, '--manifest');
  const reports = new Map<string, Uint8Array>();
  for (const path of values.report)
    reports.set(
      path.endsWith('.html') ? 'report.html' : 'report.md',
      await read(io, path, '--report'),
    );

  const style = makeStyle(useColor(io));
  let worst: number = EXIT.ok;
  for (const file of positionals) {
    const bytes = await read(io, file, 'FILE');
    const result = await verifyEvidence({
      bytes,
      verify: trust,
      ...(proof === undefined ? {} : { proof }),
      ...(logKey === undefined ? {} : { logKey }),
      witnessKeys,
      ...(anchors === undefined ? {} : { anchors }),
      ...(anchorsSha256 === undefined ? {} : { anchorsSha256 }),
      ...(expectHead === undefined ? {} : { expectHead }),
      ...(manifest === undefined ? {} : { manifest }),
      reports,
    });
    const name = file === '-' ? '(stdin)' : file;
    io.stdout(
      values.json
        ? JSON.stringify(jsonOf(name, result)) + '\n'
        : format(name, result, style) + '\n',
    );
    const status =
      result.verdict === 'invalid'
        ? EXIT.invalid
        : result.record === null
          ? EXIT.invalid
          : exitCodeOf({ ...result.record, verdict: result.verdict });
    worst = rank(status) > rank(worst) ? status : worst;
  }
  return worst;
}

async function read(io: CommandIO, path: string, what: string): Promise<Uint8Array> {
  try {
    return await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${what} ${path}: ${messageOf(err)}`);
  }
}

/** The digest in heads.sha256 beside heads.jsonl, when that file exists. */
async function publishedDigest(io: CommandIO, anchorsPath: string): Promise<string | undefined> {
  if (anchorsPath === '-') return undefined;
  let text: string;
  try {
    text = new TextDecoder().decode(await io.readInput(join(dirname(anchorsPath), 'heads.sha256')));
  } catch {
    return undefined;
  }
  const digest = text.trim().split(/\s+/)[0] ?? '';
  if (!HEX64.test(digest))
    throw usageError(
      'USAGE_BAD_ARGUMENTS',
      `expected heads.sha256 beside ${anchorsPath} to hold a SHA-256, got ${JSON.stringify(text.slice(0, 80))}`,
    );
  return digest;
}

const rank = (code: number): number =>
  code === EXIT.usage ? 3 : code === EXIT.invalid ? 2 : code === EXIT.unverified ? 1 : 0;

function jsonOf(file: string, r: EvidenceResult) {
  return {
    file,
    kind: r.kind,
    verdict: r.verdict,
    checks: r.checks,
    errors: r.errors,
    notes: r.notes,
    record: r.record,
    proof: r.proof,
    artifacts: r.bundle?.artifacts ?? null,
  };
}

function format(file: string, r: EvidenceResult, style: ReturnType<typeof makeStyle>): string {
  const lines: string[] = [];
  if (r.record !== null)
    lines.push(
      formatReport(`${file}${r.kind === 'bundle' ? ' (record.json)' : ''}`, r.record, style),
    );
  if (r.kind === 'bundle' && r.bundle !== null) {
    lines.push(
      `${r.checks.bundle === true ? style.green('✓') : style.red('✗')} bundle ${safe(file)}: ${r.bundle.files.length} files, ${r.bundle.artifacts.length} artifact${r.bundle.artifacts.length === 1 ? '' : 's'} checked`,
    );
  }
  for (const check of ['proof', 'anchors', 'expect_head', 'manifest'] as const) {
    const ok = r.checks[check];
    if (ok === undefined) continue;
    const extra =
      check === 'proof' && r.proof?.checkpoint !== undefined
        ? ` (log ${safe(r.proof.checkpoint.origin)}, size ${r.proof.checkpoint.size})`
        : '';
    lines.push(
      `${ok ? style.green('✓') : style.red('✗')} ${check.replace('_', ' ')}${ok ? ' matches' : ' does not match'}${extra}`,
    );
  }
  for (const e of r.errors) lines.push(`  ${e.check}: ${e.code}: ${safe(e.message)}`);
  for (const n of r.notes) lines.push(`  note: ${safe(n)}`);
  lines.push(`verdict: ${r.verdict}`);
  return lines.join('\n');
}
