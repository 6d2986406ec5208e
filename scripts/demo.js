// `pnpm demo`: verify the sample records, then show that a one-character edit is caught.
// Runs the built `runback` CLI exactly as a user would.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages', 'cli', 'dist', 'bin.js');
const pubkey = join(root, 'examples', 'keys', 'demo.pub.pem');
const records = ['loan-approval.json', 'triage-failure.json'].map((f) =>
  join('examples', 'records', f),
);

function runback(args) {
  console.log(`\n$ runback ${args.join(' ')}`);
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  console.log(`(exit ${run.status})`);
  return run.status;
}

const intact = runback(['verify', ...records, '--pubkey', 'examples/keys/demo.pub.pem']);
runback(['inspect', records[0]]);

const dir = mkdtempSync(join(tmpdir(), 'runback-demo-'));
try {
  const record = JSON.parse(readFileSync(join(root, records[0]), 'utf8'));
  record.events[2].output.score = 642; // the credit score the agent saw, quietly lowered
  const tamperedFile = join(dir, 'loan-approval.tampered.json');
  writeFileSync(tamperedFile, JSON.stringify(record, null, 2));
  console.log('\nEdited one value in a copy: events[2].output.score 742 → 642');
  const tampered = runback(['verify', tamperedFile, '--pubkey', pubkey]);
  const ok = intact === 0 && tampered === 1;
  console.log(
    ok
      ? '\nDemo OK: intact records verify (exit 0); the edited copy is rejected (exit 1).'
      : '\nDemo FAILED: unexpected exit codes.',
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
