// `pnpm demo`: the loan-approval example, recorded, verified, tampered with, replayed and
// diffed — with the built `runback` CLI exactly as a user runs it.
//   1. the agent (real `openai` client, two tools, a local mock model server) is recorded by the
//      SDK into a signed record, which verifies with the public key pinned;
//   2. a one-value edit to a copy is rejected;
//   3. the same agent, run as a plain program under `runback record`, is replayed with the mock
//      server stopped and reproduces; a prompt change fails strict replay, completes ordered
//      replay, and `runback diff` shows exactly that change.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockOpenAI } from '../examples/loan-approval-agent/mock-openai-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages', 'cli', 'dist', 'bin.js');
const example = join(root, 'examples', 'loan-approval-agent');
const work = mkdtempSync(join(tmpdir(), 'runback-demo-'));
const show = (path) => relative(root, path) || path;

/** Runs a command with inherited output; resolves to its exit status. */
function sh(label, command, args, cwd = root) {
  console.log(`\n$ ${label}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env },
    });
    child.once('close', (status) => {
      console.log(`(exit ${status})`);
      resolve(status);
    });
  });
}
const runback = (args) =>
  sh(
    `runback ${args.map((a) => (a.startsWith(work) ? show(a).replace(/^.*runback-demo-[^/]+/, '$WORK') : a)).join(' ')}`,
    process.execPath,
    [cli, ...args],
  );

const checks = [];
const expect = (what, status, wanted) =>
  checks.push({ what, ok: status === wanted, status, wanted });

try {
  console.log('runback demo: work files in $WORK =', work);
  expect('keygen', await runback(['keygen', '--out', work, '--name', 'demo']), 0);
  const key = join(work, 'demo.key.pem');
  const pub = join(work, 'demo.pub.pem');

  // 1. Recorded with the SDK.
  const sdkRecord = join(work, 'loan-approval.record.json');
  expect(
    'SDK example',
    await sh(
      `node examples/loan-approval-agent/main.js --out $WORK/loan-approval.record.json --key $WORK/demo.key.pem`,
      process.execPath,
      [join(example, 'main.js'), '--out', sdkRecord, '--key', key],
    ),
    0,
  );
  expect('verify', await runback(['verify', sdkRecord, '--pubkey', pub]), 0);
  expect('inspect', await runback(['inspect', sdkRecord]), 0);

  // 2. Tampering.
  const record = JSON.parse(readFileSync(sdkRecord, 'utf8'));
  const scored = record.events.find((e) => e.type === 'tool' && e.tool_name === 'get_credit_score');
  scored.output.score = 799; // the credit score the agent saw, quietly raised
  const tampered = join(work, 'loan-approval.tampered.json');
  writeFileSync(tampered, JSON.stringify(record, null, 2));
  console.log('\nEdited one value in a copy: the credit score the agent saw, 742 → 799');
  expect('tampered copy rejected', await runback(['verify', tampered, '--pubkey', pub]), 1);

  // 3. Zero-code record, replay and diff.
  const mock = await startMockOpenAI();
  const agent = join(example, 'agent.js');
  const baseline = join(work, 'baseline.json');
  expect(
    'runback record',
    await runback([
      'record',
      '--out',
      baseline,
      '--key',
      key,
      '--',
      process.execPath,
      agent,
      '--base-url',
      mock.url,
    ]),
    0,
  );
  await mock.close();
  console.log(
    '\nThe mock model server is stopped: from here on, nothing can answer but the record.',
  );
  const closed = 'http://127.0.0.1:9/v1';
  expect(
    'replay reproduces',
    await runback([
      'replay',
      baseline,
      '--pubkey',
      pub,
      '--',
      process.execPath,
      agent,
      '--base-url',
      closed,
    ]),
    0,
  );
  expect(
    'strict replay of a changed prompt fails',
    await runback([
      'replay',
      baseline,
      '--',
      process.execPath,
      agent,
      '--base-url',
      closed,
      '--prompt-style',
      'brief',
    ]),
    1,
  );
  const candidate = join(work, 'candidate.json');
  expect(
    'ordered replay completes (and reports the divergence)',
    await runback([
      'replay',
      baseline,
      '--mode',
      'ordered',
      '--out',
      candidate,
      '--',
      process.execPath,
      agent,
      '--base-url',
      closed,
      '--prompt-style',
      'brief',
    ]),
    1,
  );
  expect('diff shows the change', await runback(['diff', baseline, candidate]), 1);

  const failed = checks.filter((c) => !c.ok);
  console.log(
    failed.length === 0
      ? `\nDemo OK: ${checks.length} steps gave the expected exit statuses.`
      : `\nDemo FAILED: ${failed.map((c) => `${c.what} exited ${c.status}, expected ${c.wanted}`).join('; ')}`,
  );
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
