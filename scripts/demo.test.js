// node --test: `pnpm demo` as a newcomer reads it (run after `pnpm build`, with --no-build):
// every step says what it does and which outcome is expected before its command runs, the
// expected failures (a tampered copy, a diverged replay) are announced as expected, no stack
// trace is printed, and it ends "Demo OK" with exit 0.
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const demo = new URL('./demo.js', import.meta.url).pathname;

test('pnpm demo explains each step before it runs and shows no stack trace', () => {
  const run = spawnSync(process.execPath, [demo, '--no-build'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 240_000,
  });
  const text = run.stdout + run.stderr;
  assert.equal(run.status, 0, text);
  assert.match(run.stdout, /Demo OK: all 10 steps gave the expected outcome and exit status\./);

  // Each "── n/10" heading is followed by its "Expected:" line, and only then by its command.
  const lines = run.stdout.split('\n');
  for (let n = 1; n <= 10; n++) {
    const heading = lines.findIndex((l) => l.startsWith(`── ${n}/10  `));
    assert.ok(heading >= 0, `step ${n} has a heading`);
    assert.match(lines[heading + 1] ?? '', /^Expected: /, `step ${n} states its expected outcome`);
    const command = lines.findIndex((l, i) => i > heading && l.startsWith('$ '));
    const next = lines.findIndex((l) => l.startsWith(`── ${n + 1}/10  `));
    assert.ok(command > heading && (next === -1 || command < next), `step ${n} runs a command`);
  }
  // The outcomes a newcomer could read as failures are announced as the expected ones.
  assert.match(
    run.stdout,
    /Expected: INVALID \(exit 1\)[\s\S]*"✓ signature valid" on that copy is expected/,
  );
  assert.match(run.stdout, /Expected: ✗ DIVERGED \(exit 1\) — the outcome we want/);
  assert.match(run.stdout, /still says ✗ DIVERGED\s+\(exit 1\): that is expected/);
  // No stack trace anywhere: not the agent's, not runback's.
  assert.doesNotMatch(text, /^\s+at .+:\d+:\d+\)?$/m);
  assert.doesNotMatch(text, /Node\.js v\d+/);
});
