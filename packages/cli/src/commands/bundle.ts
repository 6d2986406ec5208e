// `runback bundle RECORD [--artifacts DIR] [-o RUN_ID.tar.gz]`: one reproducible file to hand
// an auditor — the record, every artifact its events name, README.txt, report.md and
// report.html, SHA256SUMS and optionally a log proof. The bundle is verified (as
// `runback verify BUNDLE` would) before it is written; building and checking are
// @runback/bundle's.
import { realpath } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';
import { sha256Hex } from '@runback/canonical';
import { declaredArtifacts, verifyBundle } from '@runback/bundle';
import { writeBundle } from '@runback/bundle/node';
import { atomicWrite } from '@runback/sdk/fs';
import { readJsonStrict, verifyJson } from '@runback/verify';
import { loadTrust } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import type { CommandIO } from '../log/io.js';
import { safe } from '../log/output.js';
import { buildReport } from '../report/model.js';
import { renderReport } from '../report/render.js';

const usage = `Usage: runback bundle RECORD [--artifacts DIR] [--out FILE] [--proof PROOF.json]
                      [--pubkey PEM]... [--framework eu-ai-act] [--json]

Write a reproducible evidence bundle RUN_ID.tar.gz: one top-level directory RUN_ID/ with
record.json, artifacts/ (every file an event names in "artifacts": [{name, sha256, bytes}],
read from DIR), README.txt, report.md, report.html, SHA256SUMS and, with --proof, proof.json.
Entries are sorted, mode 0644, owner 0, stamped with the run's end time, and the gzip header
has no timestamp: the same record and artifacts always give the same bytes.

The record must verify (not invalid) and every named artifact must be in DIR with the size
and SHA-256 the record names; nothing else from DIR is included. The bundle is read back and
verified before it is written.

Options:
  --artifacts DIR        where the artifacts are (default: the current directory)
  --out FILE, -o FILE    the bundle's path (default: RUN_ID.tar.gz)
  --proof PROOF.json     include an inclusion proof from runback log prove
  --pubkey PEM_FILE      pin the signer for the reports' verification line (repeatable)
  --framework eu-ai-act  include the EU AI Act mapping in the reports
  --json                 print {out, run_id, sha256, bytes, files, verdict}

Exit status: 0 written, 1 refused (record invalid, artifact missing or altered) or could not
write, 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      artifacts: { type: 'string', default: '.' },
      out: { type: 'string', short: 'o' },
      proof: { type: 'string' },
      pubkey: { type: 'string', multiple: true, default: [] },
      framework: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1)
    throw usageError('USAGE_INPUT', `expected one RECORD, got ${positionals.length}`);
  if (values.framework !== undefined && values.framework !== 'eu-ai-act') {
    throw usageError(
      'USAGE_BAD_FORMAT',
      `expected --framework eu-ai-act, got ${JSON.stringify(values.framework)}`,
    );
  }
  const path = positionals[0] as string;
  const trust = await loadTrust({ pubkey: values.pubkey }, io);
  const record = await readFile(io, path, 'RECORD');
  const parsed = readJsonStrict(record);
  if (!parsed.ok)
    throw new CliError(
      'BUNDLE_RECORD_INVALID',
      `cannot read ${path} as JSON: ${parsed.error.message}`,
    );
  const proof =
    values.proof === undefined
      ? undefined
      : new TextDecoder().decode(await readFile(io, values.proof, '--proof'));

  const artifacts = new Map<string, Uint8Array>();
  for (const ref of declaredArtifacts(parsed.value).artifacts) {
    const bytes = await readArtifact(values.artifacts, ref.name, io);
    if (bytes !== null) artifacts.set(ref.name, bytes);
  }
  const verification = verifyJson(record, trust);
  const model = buildReport(parsed.value, verification);
  const options = values.framework === 'eu-ai-act' ? { framework: 'eu-ai-act' as const } : {};
  const written = await writeBundle({
    record,
    artifacts,
    reportMd: renderReport(model, 'md', options),
    reportHtml: renderReport(model, 'html', options),
    ...(proof === undefined ? {} : { proof }),
    verify: trust,
  });
  if (!written.ok) {
    const missing = written.issues.some(
      (i) => i.code === 'BUNDLE_ARTIFACT_MISSING' || i.code === 'BUNDLE_ARTIFACT_MISMATCH',
    );
    throw new CliError(
      written.issues[0]?.code === 'BUNDLE_RECORD_INVALID'
        ? 'BUNDLE_RECORD_INVALID'
        : missing
          ? 'BUNDLE_ARTIFACT_MISMATCH'
          : 'BUNDLE_UNREADABLE',
      `refusing to bundle ${path}:\n${written.issues.map((i) => `  ${i.code}: ${safe(i.message)}`).join('\n')}`,
      { details: { issues: written.issues } },
    );
  }
  // Read the bytes back as a verifier would before they leave.
  const check = await verifyBundle(written.bytes, { verify: trust });
  if (check.errors.length > 0) {
    throw new CliError(
      'BUNDLE_UNREADABLE',
      `refusing to write: the bundle would not verify (${check.errors.map((e) => e.code).join(', ')})`,
      { details: { verification: check } },
    );
  }
  const runId = written.plan.runId;
  const out = values.out ?? `${runId}.tar.gz`;
  try {
    await atomicWrite(out, written.bytes);
  } catch (err) {
    throw new CliError('BUNDLE_WRITE_FAILED', `cannot write ${out}: ${messageOf(err)}`);
  }
  const digest = sha256Hex(written.bytes);
  const summary = {
    out,
    run_id: runId,
    sha256: digest,
    bytes: written.bytes.length,
    files: check.files.map((f) => `${runId}/${f}`),
    verdict: check.verdict,
  };
  io.stdout(
    values.json
      ? JSON.stringify(summary) + '\n'
      : `Wrote ${safe(out)} (${written.bytes.length} bytes, ${check.files.length} files, record ${check.verdict})\n  sha256  ${digest}\n`,
  );
  return EXIT.ok;
}

async function readFile(io: CommandIO, path: string, what: string): Promise<Uint8Array> {
  try {
    return await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${what} ${path}: ${messageOf(err)}`);
  }
}

/**
 * An artifact's bytes from DIR, or null when it is absent (the plan then reports it). The
 * resolved path, symlinks followed, must stay inside DIR: a record cannot make the bundler read
 * files outside the folder it was pointed at.
 */
async function readArtifact(dir: string, name: string, io: CommandIO): Promise<Uint8Array | null> {
  let real: string;
  let base: string;
  try {
    base = await realpath(dir);
    real = await realpath(join(dir, name));
  } catch {
    return null;
  }
  const rel = relative(base, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new CliError(
      'BUNDLE_ARTIFACT_MISSING',
      `expected artifact ${JSON.stringify(name)} inside ${dir}, got a path that leads outside it`,
    );
  }
  return readFile(io, real, 'artifact');
}

export const command: Command = { usage, run };
