// `pnpm demo`: the loan-approval example, recorded, verified, tampered with, replayed and
// diffed — with the built `runback` CLI exactly as a user runs it.
//   1. the agent (real `openai` client, two tools, a local mock model server) is recorded by the
//      SDK into a signed record, which verifies with the public key pinned;
//   2. a one-value edit to a copy is rejected;
//   3. the same agent, run as a plain program under `runback record`, is replayed with the mock
//      server stopped and reproduces; a prompt change fails strict replay, completes ordered
//      replay, and `runback diff` shows exactly that change.
// Each step says what it will show, and which outcome is the expected one, before it runs.
// `--no-build` skips the build (the packages are already built).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages', 'cli', 'dist', 'bin.js');
const example = join(root, 'examples', 'loan-approval-agent');
const useColor = process.stdout.isTTY === true && !process.env.NO_COLOR;
const paint = (code) => (text) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);
const bold = paint('1');
const dim = paint('2');
const cyan = paint('36');

// tsup colours its log even when asked not to; the failure text is shown plain.
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** Builds what the demo runs (the CLI and the packages under it), saying what it is doing. */
async function build() {
  console.log(bold('Building the runback packages the demo uses'));
  console.log(dim('(about a minute on a fresh clone; a few seconds once turbo has them cached)'));
  const started = Date.now();
  const pnpm = process.env.npm_execpath;
  const [command, prefix] =
    pnpm !== undefined && /pnpm/.test(pnpm) ? [process.execPath, [pnpm]] : ['pnpm', []];
  const args = [...prefix, 'turbo', 'run', 'build', '--filter=@runback/cli...'];
  const child = spawn(command, [...args, '--output-logs=new-only'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  let log = '';
  let pending = '';
  const seen = new Set();
  const onData = (chunk) => {
    log += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      // turbo: "@runback/verify:build: cache miss, executing 1a2b…" / "cache hit, replaying logs"
      const m = /^(@runback\/[\w-]+):build: cache (hit|miss)/.exec(line.trim());
      if (m === null || seen.has(m[1])) continue;
      seen.add(m[1]);
      console.log(`  ${m[2] === 'hit' ? dim(`${m[1]} (cached)`) : `building ${m[1]}…`}`);
    }
  };
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);
  const tick = setInterval(
    () => console.log(dim(`  … still building (${Math.round((Date.now() - started) / 1000)} s)`)),
    10_000,
  );
  const status = await new Promise((resolve) => {
    child.once('error', (err) => resolve(err));
    child.once('close', resolve);
  });
  clearInterval(tick);
  if (status !== 0) {
    const why = status instanceof Error ? status.message : `exit ${status}`;
    const lines = log.replace(ANSI_COLOUR, '').trim().split('\n');
    const errors = lines.filter((l) => /error/i.test(l));
    const shown = errors.length > 0 ? errors.slice(-20) : lines.slice(-40);
    console.error(`\nThe build failed (${why}):\n${shown.join('\n')}`);
    console.error('Run "pnpm build" to see the whole build output.');
    return false;
  }
  console.log(`Built ${seen.size} packages in ${Math.round((Date.now() - started) / 1000)} s.\n`);
  return true;
}

const work = mkdtempSync(join(tmpdir(), 'runback-demo-'));
/** A path as the reader should see it: $WORK/… for work files, repo-relative otherwise. */
const show = (arg) => {
  if (arg === process.execPath) return 'node';
  if (arg.startsWith(work)) return `$WORK${arg.slice(work.length)}`;
  if (arg.startsWith(root)) return relative(root, arg) || '.';
  return arg;
};

let stepNumber = 0;
const STEPS = 10;
/** Announces a step: what it does, and the outcome that means the demo is working. */
function step(title, expectation) {
  stepNumber++;
  console.log(`\n${bold(cyan(`── ${stepNumber}/${STEPS}  ${title}`))}`);
  console.log(`${bold('Expected:')} ${expectation}`);
}

/** Runs a command with inherited output; resolves to its exit status. */
function sh(command, args, label = [command, ...args].map(show).join(' ')) {
  console.log(dim(`\n$ ${label}`));
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env },
    });
    child.once('error', (err) => {
      console.log(`(could not start ${show(command)}: ${err.message})`);
      resolve(null);
    });
    child.once('close', (status) => {
      console.log(dim(`(exit ${status})`));
      resolve(status);
    });
  });
}
// Shown as the user would type it; run as the built CLI.
const runback = (args) =>
  sh(process.execPath, [cli, ...args], ['runback', ...args.map(show)].join(' '));

const checks = [];
const expect = (what, status, wanted) =>
  checks.push({ what, ok: status === wanted, status, wanted });

async function demo() {
  console.log(`${bold('runback demo')}: work files go to $WORK = ${work}`);
  step(
    'make a signing key',
    'a key pair: the private key signs records, the public key proves who signed them (exit 0).',
  );
  expect('keygen', await runback(['keygen', '--out', work, '--name', 'demo']), 0);
  const key = join(work, 'demo.key.pem');
  const pub = join(work, 'demo.pub.pem');

  // 1. Recorded with the SDK.
  const sdkRecord = join(work, 'loan-approval.record.json');
  step(
    'record the agent with the SDK',
    'the agent approves the loan; its model calls and tool calls land in a signed record (exit 0).',
  );
  expect(
    'SDK example',
    await sh(process.execPath, [join(example, 'main.js'), '--out', sdkRecord, '--key', key]),
    0,
  );
  step(
    'verify the record with the public key pinned',
    'VALID: every check ✓ and the signature valid under the pinned key (exit 0).',
  );
  expect('verify', await runback(['verify', sdkRecord, '--pubkey', pub]), 0);
  step(
    'inspect the record',
    'the verdict first (VALID, since the key is given), then the input, the decision and each tool call with its input and result (exit 0).',
  );
  expect('inspect', await runback(['inspect', sdkRecord, '--pubkey', pub]), 0);

  // 2. Tampering.
  const record = JSON.parse(readFileSync(sdkRecord, 'utf8'));
  const scored = record.events.find((e) => e.type === 'tool' && e.tool_name === 'get_credit_score');
  scored.output.score = 799; // the credit score the agent saw, quietly raised
  const tampered = join(work, 'loan-approval.tampered.json');
  writeFileSync(tampered, JSON.stringify(record, null, 2));
  step(
    'tamper with a copy: the credit score the agent saw, 742 → 799',
    [
      'INVALID (exit 1): ✗ chain, digest and cassette name the edited event.',
      '"✓ signature valid" on that copy is expected too: the signature covers the manifest,',
      "which the edit did not touch; it is the manifest's digests that no longer match the",
      'events. A valid signature over a record whose content fails its digests is still INVALID.',
    ].join('\n          '),
  );
  expect('tampered copy rejected', await runback(['verify', tampered, '--pubkey', pub]), 1);

  // 3. Zero-code record, replay and diff.
  const { startMockOpenAI } = await import(join(example, 'mock-openai-server.js'));
  const mock = await startMockOpenAI();
  const agent = join(example, 'agent.js');
  const baseline = join(work, 'baseline.json');
  step(
    'record the same agent as a plain program (no code change) with runback record',
    '"✓ Recorded", exit 0: its model calls, clock and randomness are captured through the preload.',
  );
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
  console.log('\nThe mock model server is now stopped: from here on, only the record can answer.');
  const closed = 'http://127.0.0.1:9/v1';
  step(
    'replay the program against its record',
    '✓ REPRODUCED (exit 0): same calls, same cassette digest, same output — with no model server.',
  );
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
  step(
    'change the prompt (--prompt-style brief) and replay strictly',
    [
      '✗ DIVERGED (exit 1) — the outcome we want: strict replay refuses a call the record cannot',
      'answer. The agent stops with one line ("agent: 400 strict replay: …") and the report',
      'names the call and shows the prompt change word by word.',
    ].join('\n          '),
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
  step(
    'replay the changed program in ordered mode',
    [
      'the program completes (its decision is printed) and the report still says ✗ DIVERGED',
      '(exit 1): that is expected — ordered replay answers each call with the recorded one in',
      'turn, so the changed program runs to the end, and the report says where it departed from',
      'the record (the system prompt of call 3). The new run is kept for the diff.',
    ].join('\n          '),
  );
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
  step(
    'diff the two runs',
    [
      'only what the prompt change changed: the system prompt in both model calls, and the',
      "program's arguments (--prompt-style brief); the tool calls and the decision are the same.",
      'Exit 1 means "the runs differ".',
    ].join('\n          '),
  );
  expect('diff shows the change', await runback(['diff', baseline, candidate]), 1);

  const failed = checks.filter((c) => !c.ok);
  console.log(
    failed.length === 0
      ? `\n${bold('Demo OK')}: all ${checks.length} steps gave the expected outcome and exit status.`
      : `\n${bold('Demo FAILED')}: ${failed.map((c) => `${c.what} exited ${c.status}, expected ${c.wanted}`).join('; ')}`,
  );
  return failed.length === 0;
}

try {
  const built = process.argv.includes('--no-build') || (await build());
  process.exitCode = built && (await demo()) ? 0 : 1;
} catch (err) {
  // The demo's own failure (a missing build, a port in use): one line, not a stack trace.
  console.error(`\nThe demo stopped: ${err instanceof Error ? err.message : String(err)}`);
  if (process.env.RUNBACK_DEBUG) console.error(err);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
