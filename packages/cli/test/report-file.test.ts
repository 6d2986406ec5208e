// runback record and replay leave standard output to the program they run: their JSON report
// goes to standard error with --json, and to a file with --report FILE (written atomically,
// the same JSON, an error too). A command that cannot start is not reported as recorded.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastJsonLine, runbackAsync, tempDir } from './support.js';

const PROGRAM = 'console.log("answer", Date.now() > 0, Math.random() < 2)';

/** The program after "--": node running PROGRAM. */
const NODE_PROGRAM = ['--', process.execPath, '-e', PROGRAM];

describe('runback record --report FILE', () => {
  it('writes the --json report to FILE; stdout stays the program', async () => {
    const dir = tempDir();
    const out = join(dir, 'run.json');
    const report = join(dir, 'report.json');
    const r = await runbackAsync([
      'record',
      '--out',
      out,
      '--json',
      '--report',
      report,
      ...NODE_PROGRAM,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('answer true true\n');
    const fromStderr = lastJsonLine(r.stderr);
    const fromFile = JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>;
    expect(fromFile).toEqual(fromStderr);
    expect(fromFile).toMatchObject({ out, exit_code: 0, spawn_error: null, verdict: 'unverified' });
    expect(readdirSync(dir).sort()).toEqual(['report.json', 'run.json']); // no temp file left
  });

  it('without --json the human report is on stderr and FILE still gets the JSON', async () => {
    const dir = tempDir();
    const report = join(dir, 'report.json');
    const r = await runbackAsync([
      'record',
      '--out',
      join(dir, 'run.json'),
      `--report=${report}`,
      '--',
      process.execPath,
      '-e',
      'process.exit(4)',
    ]);
    expect(r.status).toBe(4);
    expect(r.stderr).toContain('exit 4 (the command failed; its failure is recorded)');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ exit_code: 4 });
  });

  it('a command that cannot start: "✗ Could not start", exit 127, a record that says so', async () => {
    const dir = tempDir();
    const out = join(dir, 'run.json');
    const report = join(dir, 'report.json');
    const r = await runbackAsync([
      'record',
      '--out',
      out,
      '--report',
      report,
      '--',
      'runback-no-such-program-xyz',
    ]);
    expect(r.status).toBe(127);
    expect(r.stderr).not.toContain('Recorded');
    expect(r.stderr).not.toContain('✓');
    expect(r.stderr).toMatch(/^✗ Could not start the command: .*ENOENT/m);
    expect(r.stderr).toContain('exit       127');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({
      exit_code: null,
      spawn_error: expect.stringContaining('ENOENT') as unknown,
    });
    const record = JSON.parse(readFileSync(out, 'utf8')) as {
      run: { status: string; error: { name: string } };
    };
    expect(record.run).toMatchObject({ status: 'error', error: { name: 'SpawnError' } });
  });

  it('a usage error goes to FILE as {"error": …}; --json prints it on stderr alone', async () => {
    const dir = tempDir();
    const report = join(dir, 'report.json');
    const r = await runbackAsync([
      'record',
      '--json',
      '--report',
      report,
      '--output-limit',
      'lots',
      '--out',
      join(dir, 'run.json'),
      '--',
      'true',
    ]);
    expect(r.status).toBe(64);
    expect(r.stdout).toBe('');
    const error = { error: { code: 'USAGE_BAD_OUTPUT_LIMIT', exit_code: 64 } };
    expect(JSON.parse(r.stderr)).toMatchObject(error);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject(error);
  });

  it('refuses --report naming the record itself and leaves that file alone', async () => {
    const dir = tempDir();
    const out = join(dir, 'run.json');
    writeFileSync(out, 'keep me');
    const r = await runbackAsync(['record', '--out', out, '--report', out, '--', 'true']);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('expected --report FILE to be a file of its own');
    expect(readFileSync(out, 'utf8')).toBe('keep me');
  });

  it('an --out or --report in a missing folder is refused before the program runs', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const program = [
      '--',
      process.execPath,
      '-e',
      `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`,
    ];
    const missing = join(dir, 'no-such-folder', 'run.json');
    const out = await runbackAsync(['record', '--out', missing, '--json', ...program]);
    expect(out.status).toBe(64);
    expect(JSON.parse(out.stderr)).toMatchObject({
      error: {
        code: 'USAGE_BAD_OUT',
        message: `expected --out ${missing} to be in an existing folder, got no folder ${dirname(missing)}`,
      },
    });
    const report = await runbackAsync([
      'record',
      '--out',
      join(dir, 'run.json'),
      '--report',
      missing,
      ...program,
    ]);
    expect(report.status).toBe(64);
    expect(report.stderr).toContain(`expected --report ${missing} to be in an existing folder`);
    const named = await runbackAsync([
      'record',
      '--out',
      join(dir, 'run.json'),
      '--name',
      '',
      ...program,
    ]);
    expect(named.status).toBe(64);
    expect(existsSync(marker)).toBe(false); // the program never ran
    expect(existsSync(join(dir, 'run.json'))).toBe(false);
  });

  it('a bad RUNBACK_API_URL is named by its variable, not an option path', async () => {
    const dir = tempDir();
    const r = await runbackAsync(['record', '--out', join(dir, 'run.json'), '--', 'true'], {
      RUNBACK_API_URL: 'ftp://audit.example',
      RUNBACK_API_KEY: 'k',
    });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain(
      'expected RUNBACK_API_URL to be an http(s) URL, got "ftp://audit.example"',
    );
    expect(r.stderr).not.toContain('options.');
    expect(existsSync(join(dir, 'run.json'))).toBe(false);
  });
});

describe('the README --report example', () => {
  it('runs as written and the report has the member it reads', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /```sh\n(runback record --out run\.json --report[\s\S]*?)```/.exec(readme)?.[1];
    if (block === undefined) throw new Error('expected the --report example in the README');
    const [command, query] = block.trim().split('\n');
    const dir = tempDir();
    writeFileSync(join(dir, 'agent.js'), 'console.log("decided", Date.now() > 0);\n');
    const args = (command ?? '').split(/\s+/).slice(1);
    const r = await runbackAsync(args, {}, dir); // as written, in a folder with agent.js
    expect(r.status, r.stderr).toBe(0);
    // The README reads `jq .exit_code run.report.json`.
    const member = /^jq \.(\w+) run\.report\.json$/.exec(query ?? '')?.[1];
    expect(member).toBe('exit_code');
    const report = JSON.parse(readFileSync(join(dir, 'run.report.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(report[member as string]).toBe(0);
  });
});

describe('runback replay --report FILE', () => {
  it('writes the --json report to FILE, and a refused record as {"error": …}', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'baseline.json');
    const recorded = await runbackAsync(['record', '--out', baseline, ...NODE_PROGRAM]);
    expect(recorded.status, recorded.stderr).toBe(0);

    const report = join(dir, 'replay.json');
    const r = await runbackAsync([
      'replay',
      baseline,
      '--json',
      '--report',
      report,
      ...NODE_PROGRAM,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('answer true true\n');
    const fromFile = JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>;
    expect(fromFile).toEqual(lastJsonLine(r.stderr));
    expect(fromFile).toMatchObject({ status: 'reproduced' });

    const badKey = join(dir, 'not-a-key.pem');
    writeFileSync(badKey, 'hello\n');
    const refused = await runbackAsync([
      'replay',
      baseline,
      '--pubkey',
      badKey,
      '--report',
      report,
      ...NODE_PROGRAM,
    ]);
    expect(refused.status).toBe(64); // a usage error naming the flag, not an internal error
    expect(refused.stderr).toContain(`--pubkey ${badKey}: expected`);
    expect(refused.stderr).not.toContain('trust.pinned');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({
      error: { code: 'USAGE_BAD_PUBLIC_KEY', exit_code: 64 },
    });
  });
});
