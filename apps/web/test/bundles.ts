// Evidence bundles for the page's tests: a sealed, signed record whose events name two
// artifacts, bundled by the built `runback bundle`; a copy with one artifact changed; and
// hostile archives made by GNU tar (an independent writer), each as bytes on disk.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';

export const CLI_BIN = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));

const RUN_ID = 'run_webbundle1';
const KEY = generateEd25519KeyPair(new Uint8Array(32).fill(47));
export const SIGNER_PEM = publicKeyToPem(KEY.publicKey);

const ARTIFACTS: Record<string, string> = {
  'decision.json': '{"decision":"approve","limit":5000}\n',
  'evidence/score.txt': 'credit score 742 (bureau B)\n',
};

function ref(name: string) {
  const bytes = new TextEncoder().encode(ARTIFACTS[name]);
  return { name, sha256: bytesToHex(sha256(bytes)), bytes: bytes.length };
}

function recordText(): string {
  const at = (s: number) => `2026-07-02T09:15:${String(s).padStart(2, '0')}.000Z`;
  const base = (seq: number, span: string, parent: string | null, ts: string) => ({
    schema_version: 1,
    run_id: RUN_ID,
    span_id: span,
    parent_span_id: parent,
    seq,
    ts_start: ts,
    ts_end: ts,
  });
  const events = [
    {
      ...base(0, 'root', null, at(0)),
      type: 'run',
      phase: 'start',
      name: 'credit-line',
      status: 'running',
      input: { applicant: 'B-77' },
    },
    {
      ...base(1, 'score', 'root', at(1)),
      type: 'tool',
      tool_name: 'bureau_score',
      tool_call_id: 'call_1',
      input: { applicant: 'B-77' },
      output: { score: 742 },
      latency_ms: 40,
      error: null,
      artifacts: [ref('evidence/score.txt')],
    },
    {
      ...base(2, 'root', null, at(3)),
      ts_start: at(0),
      type: 'run',
      phase: 'end',
      name: 'credit-line',
      status: 'success',
      output: { decision: 'approve' },
      error: null,
      artifacts: [ref('decision.json')],
    },
  ];
  const run = {
    run_id: RUN_ID,
    name: 'credit-line',
    status: 'success',
    started_at: at(0),
    ended_at: at(3),
    output: { decision: 'approve' },
  };
  const record = sealRecord(
    { run, events },
    { generatedAt: at(4), signer: { alg: 'Ed25519', privateKey: KEY.privateKey } },
  );
  return JSON.stringify(record, null, 2) + '\n';
}

export interface BundleFiles {
  readonly dir: string;
  /** name → path of each bundle file. */
  readonly files: Readonly<Record<string, string>>;
}

function tar(cwd: string, args: string[]): void {
  execFileSync('tar', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Writes the genuine bundle, a tampered one and the hostile archives; returns their paths. */
export function makeBundles(): BundleFiles {
  const dir = mkdtempSync(join(tmpdir(), 'runback-web-bundles-'));
  const record = join(dir, 'record.json');
  writeFileSync(record, recordText());
  const artifacts = join(dir, 'artifacts');
  for (const [name, text] of Object.entries(ARTIFACTS)) {
    mkdirSync(join(artifacts, name, '..'), { recursive: true });
    writeFileSync(join(artifacts, name), text);
  }
  const genuine = join(dir, `${RUN_ID}.tar.gz`);
  const made = spawnSync(
    process.execPath,
    [CLI_BIN, 'bundle', record, '--artifacts', artifacts, '-o', genuine],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`runback bundle failed: ${made.stderr}`);

  // The genuine bundle unpacked by GNU tar, one artifact changed, packed again.
  const unpacked = join(dir, 'unpacked');
  mkdirSync(unpacked);
  tar(unpacked, ['-xzf', genuine]);
  writeFileSync(join(unpacked, RUN_ID, 'artifacts', 'decision.json'), '{"decision":"decline"}\n');
  const tampered = join(dir, 'tampered-artifact.tar.gz');
  tar(unpacked, ['--sort=name', '-czf', tampered, RUN_ID]);

  // A symbolic link inside the one top-level directory.
  const linked = join(dir, 'link');
  mkdirSync(join(linked, RUN_ID), { recursive: true });
  writeFileSync(join(linked, RUN_ID, 'record.json'), readFileSync(record));
  symlinkSync('/etc/passwd', join(linked, RUN_ID, 'README.txt'));
  const withLink = join(dir, 'symlink.tar.gz');
  tar(linked, ['-czf', withLink, RUN_ID]);

  // Two top-level directories.
  const twoRoots = join(dir, 'two-roots.tar.gz');
  mkdirSync(join(unpacked, 'second'));
  writeFileSync(join(unpacked, 'second', 'extra.txt'), 'x\n');
  tar(unpacked, ['--sort=name', '-czf', twoRoots, RUN_ID, 'second']);

  // A member named with `..`, kept as written (-P).
  const dotdot = join(dir, 'dotdot.tar.gz');
  tar(unpacked, [
    '-P',
    '--transform',
    `s|^${RUN_ID}/README.txt|${RUN_ID}/../escape.txt|`,
    '-czf',
    dotdot,
    `${RUN_ID}/README.txt`,
    `${RUN_ID}/record.json`,
  ]);

  // An absolute member name (-P keeps the leading slash).
  const absolute = join(dir, 'absolute.tar.gz');
  tar(unpacked, ['-P', '--transform', 's|^|/tmp/|', '-czf', absolute, `${RUN_ID}/record.json`]);

  const files = {
    genuine,
    tampered,
    symlink: withLink,
    'two-roots': twoRoots,
    dotdot,
    absolute,
  };
  return { dir, files };
}
