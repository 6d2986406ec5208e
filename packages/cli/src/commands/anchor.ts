// `runback anchor FILE... --out DIR`: the anchors of records and bundles — DIR/heads.jsonl
// (one canonical line per run, sorted by run id) and DIR/heads.sha256 — and the release
// manifest DIR/release.json (with DIR/release.sha256), which pins each run's head, the
// reports inside its bundle and the bundle itself. Publish the two digests somewhere outside
// your control; `runback verify --anchors` / `--manifest` check against them later.
import { join } from 'node:path';
import {
  anchorLineOf,
  formatAnchors,
  formatManifest,
  readBundle,
  sha256Hex,
  verifyEvidence,
  type AnchorLine,
  type ReleaseRun,
} from '@runback/bundle';
import { atomicWrite } from '@runback/sdk/fs';
import { readJsonStrict } from '@runback/verify';
import { mkdir } from 'node:fs/promises';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import type { CommandIO } from '../log/io.js';
import { safe } from '../log/output.js';

const usage = `Usage: runback anchor FILE... --out DIR [--json]

Write the anchors of records and bundles (FILE.tar.gz from runback bundle):
  DIR/heads.jsonl     one canonical JSON line per run, sorted by run id:
                      {cassette_digest, content_digest, event_count, run_id[, report_sha256]}
  DIR/heads.sha256    the SHA-256 of heads.jsonl: one value committing to every run at once
  DIR/release.json    the release manifest (runback.release/v1): each run's head, the SHA-256
                      of its bundle's report.md and report.html, and of the bundle itself
  DIR/release.sha256  the SHA-256 of release.json

Every FILE must verify (not invalid). Publish heads.sha256 and release.sha256 where they
cannot be changed later (a public commit, a timestamping service, a transparency log); then
runback verify FILE --anchors DIR/heads.jsonl and --manifest DIR/release.json prove the
record, reports and bundle are the ones anchored.

Exit status: 0 written, 1 a FILE does not verify or a run id repeats, 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { out: { type: 'string', short: 'o' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length === 0)
    throw usageError('USAGE_INPUT', 'expected at least one FILE, got none');
  if (values.out === undefined) throw usageError('USAGE_NO_OUT', 'expected --out DIR, got none');
  const lines: AnchorLine[] = [];
  const runs: ReleaseRun[] = [];
  for (const file of positionals) {
    let bytes: Uint8Array;
    try {
      bytes = await io.readInput(file);
    } catch (err) {
      throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${file}: ${messageOf(err)}`);
    }
    const checked = await verifyEvidence({ bytes });
    if (checked.verdict === 'invalid') {
      const first = checked.errors[0] ?? checked.record?.errors[0];
      throw new CliError(
        'ANCHOR_INPUT_INVALID',
        `${file}: refusing to anchor evidence that does not verify${first === undefined ? '' : ` (${first.code}: ${first.message})`}`,
      );
    }
    const { head, reports } = await headAndReports(bytes, checked.kind);
    if (head === null)
      throw new CliError(
        'ANCHOR_INPUT_INVALID',
        `${file}: expected a sealed record with a manifest, got none`,
      );
    const reportMd = reports.get('report.md');
    lines.push(reportMd === undefined ? head : { ...head, report_sha256: reportMd });
    runs.push({
      ...head,
      files: Object.fromEntries([...reports].map(([name, sha256]) => [name, { sha256 }])),
      bundle: checked.kind === 'bundle' ? { sha256: sha256Hex(bytes) } : null,
    });
  }
  let anchors: ReturnType<typeof formatAnchors>;
  try {
    anchors = formatAnchors(lines);
  } catch (err) {
    throw new CliError('ANCHOR_INPUT_INVALID', messageOf(err));
  }
  const release = formatManifest(runs);
  await mkdir(values.out, { recursive: true });
  await atomicWrite(join(values.out, 'heads.jsonl'), anchors.text);
  await atomicWrite(join(values.out, 'heads.sha256'), `${anchors.sha256}  heads.jsonl\n`);
  await atomicWrite(join(values.out, 'release.json'), release.text);
  await atomicWrite(join(values.out, 'release.sha256'), `${release.sha256}  release.json\n`);
  const summary = {
    out: values.out,
    runs: lines.length,
    heads_sha256: anchors.sha256,
    release_sha256: release.sha256,
  };
  io.stdout(
    values.json
      ? JSON.stringify(summary) + '\n'
      : `Anchored ${lines.length} run${lines.length === 1 ? '' : 's'} in ${safe(values.out)}\n  heads.sha256    ${anchors.sha256}\n  release.sha256  ${release.sha256}\nPublish both digests where they cannot be changed later.\n`,
  );
  return EXIT.ok;
}

async function headAndReports(
  bytes: Uint8Array,
  kind: 'record' | 'bundle',
): Promise<{ head: AnchorLine | null; reports: Map<string, string> }> {
  const reports = new Map<string, string>();
  let record: Uint8Array | undefined = bytes;
  if (kind === 'bundle') {
    const read = await readBundle(bytes);
    record = read.ok ? read.bundle.files.get('record.json') : undefined;
    for (const name of ['report.md', 'report.html']) {
      const file = read.ok ? read.bundle.files.get(name) : undefined;
      if (file !== undefined) reports.set(name, sha256Hex(file));
    }
  }
  const parsed = record === undefined ? null : readJsonStrict(record);
  return { head: parsed?.ok === true ? anchorLineOf(parsed.value) : null, reports };
}

export const command: Command = { usage, run };
