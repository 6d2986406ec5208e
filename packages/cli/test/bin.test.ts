// The built executable, end to end: keygen → sign → verify → inspect, as a user runs it.
// Needs `pnpm build` first (turbo runs test after build).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { realisticRun, RUN_ID, tempDir } from './support.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

function runback(args: string[], options: { cwd?: string; input?: string } = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    input: options.input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('dist/bin.js', () => {
  beforeAll(() => {
    if (!existsSync(BIN))
      throw new Error(
        `expected the built CLI at ${BIN}, got nothing: run "pnpm build" in packages/cli first`,
      );
  });

  it('is the package bin, starts with a node shebang and is executable', () => {
    // The linked bin exists before the build (bin/runback.js) and runs the built dist/bin.js.
    expect(pkg.bin['runback']).toBe('./bin/runback.js');
    const linked = fileURLToPath(new URL('../bin/runback.js', import.meta.url));
    expect(readFileSync(linked, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(linked).mode & 0o111).not.toBe(0);
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
  });

  it('--version prints the package version', () => {
    const r = runback(['--version']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('an unknown command exits 64', () => {
    const r = runback(['frobnicate']);
    expect(r.status, r.stderr).toBe(64);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  it('keygen → sign → verify --pubkey (0), tampered (1), unpinned (2), inspect', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.json'), JSON.stringify(realisticRun(), null, 2));

    const keygen = runback(['keygen', '--out', 'keys', '--json'], { cwd: dir });
    expect(keygen.status, keygen.stderr).toBe(0);
    const keys = JSON.parse(keygen.stdout) as {
      key_id: string;
      private_key: string;
      public_key: string;
    };
    expect(statSync(join(dir, keys.private_key)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, keys.public_key)).mode & 0o777).toBe(0o644);

    const sign = runback(['sign', 'run.json', '--key', keys.private_key, '--out', 'record.json'], {
      cwd: dir,
    });
    expect(sign.stderr).toBe('');
    expect(sign.status, sign.stderr).toBe(0);
    expect(sign.stdout).toContain(`key ${keys.key_id}`);

    const valid = runback(['verify', 'record.json', '--pubkey', keys.public_key], { cwd: dir });
    expect(valid.status, valid.stderr).toBe(0);
    expect(valid.stdout).toContain('VALID');

    const json = runback(['verify', 'record.json', '--pubkey', keys.public_key, '--json'], {
      cwd: dir,
    });
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      verdict: 'valid',
      valid: true,
      signer: { alg: 'Ed25519', key_id: keys.key_id },
    });

    const unpinned = runback(['verify', 'record.json'], { cwd: dir });
    expect(unpinned.status, unpinned.stderr).toBe(2);
    expect(unpinned.stdout).toContain('UNVERIFIED');

    copyFileSync(join(dir, 'record.json'), join(dir, 'tampered.json'));
    const text = readFileSync(join(dir, 'tampered.json'), 'utf8');
    expect(text).toContain('"input_tokens": 428');
    writeFileSync(
      join(dir, 'tampered.json'),
      text.replace('"input_tokens": 428', '"input_tokens": 42'),
    );
    const tampered = runback(['verify', 'tampered.json', '--pubkey', keys.public_key, '--json'], {
      cwd: dir,
    });
    expect(tampered.status, tampered.stderr).toBe(1);
    expect(JSON.parse(tampered.stdout)).toMatchObject({
      verdict: 'invalid',
      checks: { chain: false },
    });

    const inspect = runback(['inspect', 'record.json', '--json'], { cwd: dir });
    expect(inspect.status, inspect.stderr).toBe(0);
    expect(JSON.parse(inspect.stdout)).toMatchObject({
      run: { run_id: RUN_ID, status: 'error' },
      llm: { total_tokens: 612 },
      chain: { verdict: 'unverified', signer: { key_id: keys.key_id } },
    });
    const human = runback(['inspect', 'record.json'], { cwd: dir });
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toContain('loan-approval-agent');
  });

  it('sign reads standard input and writes the record to standard output', () => {
    const r = runback(['sign', '-', '--generated-at', '2026-06-14T02:47:14.000Z'], {
      input: JSON.stringify(realisticRun()),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      $schema: 'runback.audit/v2',
      manifest: { signed: false, event_count: 6 },
    });
    expect(r.stderr).toContain('Sealed');
    const verify = runback(['verify', '-', '--json'], { input: r.stdout });
    expect(verify.status, verify.stderr).toBe(2);
    expect(JSON.parse(verify.stdout)).toMatchObject({ verdict: 'unverified', integrity: true });
  });

  it('malformed input exits 1 with a message and no stack trace', () => {
    const r = runback(['sign', '-'], { input: '{"run": {"run_id": "r"}, "events": [1]}' });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('expected events[0] to be an event object');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a reader that closes the pipe early is not a crash; the exit status is still the verdict', () => {
    const dir = tempDir();
    const input = realisticRun();
    // Big enough (> a pipe buffer) that writing it hits the closed pipe.
    (input.events[2] as Record<string, unknown>)['output'] = { pages: 'x'.repeat(256 * 1024) };
    writeFileSync(join(dir, 'run.json'), JSON.stringify(input));
    const script = `"${process.execPath}" "${BIN}" sign run.json | true; echo "status=\${PIPESTATUS[0]}"`;
    const r = spawnSync('bash', ['-c', script], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.stdout).toBe('status=0\n');
    expect(r.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  });
});

describe('lazy loading', () => {
  /** The dist files a module loads statically (before any import() runs), itself included. */
  function staticClosure(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen;
    seen.add(file);
    const text = readFileSync(join(DIST, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?["']\.\/([^"']+)["'];?$/gm)) {
      staticClosure(m[1] as string, seen);
    }
    return seen;
  }
  const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

  it('runback verify loads no keygen, sign or inspect code', () => {
    const dispatcher = [...staticClosure('bin.js')]
      .map((f) => readFileSync(join(DIST, f), 'utf8'))
      .join('\n');
    const chunkOf = (name: string) =>
      new RegExp(`load: \\(\\) => import\\("\\./(${name}-[^"]+)"\\)`).exec(dispatcher)?.[1];
    const [verify, keygen, sign, inspect] = ['verify', 'keygen', 'sign', 'inspect'].map(chunkOf);
    expect([verify, keygen, sign, inspect].every((c) => c !== undefined)).toBe(true);
    const loaded = new Set([...staticClosure('bin.js'), ...staticClosure(verify as string)]);
    for (const other of [keygen, sign, inspect]) expect(loaded.has(other as string)).toBe(false);
    const code = [...loaded].map((f) => readFileSync(join(DIST, f), 'utf8')).join('\n');
    expect(code).not.toContain('@runback/sign');
    expect(code).not.toContain('atomicWrite');
    expect(code).not.toContain('summarizeRecord');
  });
});

describe('README example', () => {
  it('runs as written: keygen → sign → verify (0) → inspect', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const json = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
    const commands = /```sh\n(runback keygen[\s\S]*?)```/.exec(readme)?.[1];
    if (json === undefined || commands === undefined)
      throw new Error('expected the README example');
    const dir = tempDir();
    writeFileSync(join(dir, 'run.json'), json);
    const lines = commands.split('\n').filter((l) => l.startsWith('runback '));
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(['keygen', 'sign', 'verify', 'inspect']);
    for (const line of lines) {
      const args = line.replace(/#.*$/, '').trim().split(/\s+/).slice(1);
      const r = runback(args, { cwd: dir });
      expect({ line, status: r.status, stderr: r.stderr }).toEqual({ line, status: 0, stderr: '' });
    }
  });
});
