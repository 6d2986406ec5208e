// `runback replay` and `runback diff`, end to end through the built CLI: a program recorded
// with its server running replays with the server stopped and prints the same output; a changed
// program fails a strict replay naming the call, completes an ordered one, and `runback diff`
// shows exactly the change.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lastJsonLine, runbackAsync, tempDir } from './support.js';

const QUOTE = fileURLToPath(new URL('./fixtures/quote-program.mjs', import.meta.url));
const STEADY = fileURLToPath(new URL('./fixtures/steady-program.mjs', import.meta.url));

/** A quote service that counts its requests; closed before replays. */
async function quoteServer(): Promise<{
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ rate: 0.042 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/quote`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('runback replay', () => {
  it('replays fetch, Date.now and Math.random with the server stopped: same output, exit 0', async () => {
    const dir = tempDir();
    const server = await quoteServer();
    const baseline = join(dir, 'baseline.json');
    const recorded = await runbackAsync([
      'record',
      '--out',
      baseline,
      '--',
      process.execPath,
      QUOTE,
      server.url,
    ]);
    expect(recorded.status, recorded.stderr).toBe(0);
    await server.close();
    const hitsBefore = server.hits();

    const replayed = await runbackAsync([
      'replay',
      baseline,
      '--json',
      '--out',
      join(dir, 'replay.json'),
      '--',
      process.execPath,
      QUOTE,
      server.url,
    ]);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    const report = lastJsonLine(replayed.stderr);
    expect(report).toMatchObject({
      status: 'reproduced',
      cassette_matches: true,
      output_matches: true,
      mode: 'strict',
    });
    expect(server.hits()).toBe(hitsBefore);
    // The replay's own record names its parent.
    const replay = JSON.parse(readFileSync(join(dir, 'replay.json'), 'utf8')) as {
      events: { metadata?: { replay_of?: unknown } }[];
    };
    expect(replay.events[0]?.metadata?.replay_of).toMatchObject({ mode: 'strict' });
  });

  it('a changed request fails strict replay naming the call, completes ordered, and diff shows it', async () => {
    const dir = tempDir();
    const server = await quoteServer();
    const baseline = join(dir, 'baseline.json');
    expect(
      (await runbackAsync(['record', '--out', baseline, '--', process.execPath, QUOTE, server.url]))
        .status,
    ).toBe(0);
    await server.close();

    const strict = await runbackAsync(
      ['replay', baseline, '--', process.execPath, QUOTE, server.url],
      {
        APPLICANT: 'B-7',
      },
    );
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain(
      'DIVERGED at call 1 (fetch): no recorded call answers it (a replay miss',
    );
    expect(strict.stderr).toContain('nearest recorded call 1 (seq 1)');
    expect(strict.stderr).toContain('/body/text');
    expect(strict.stderr).toContain('strict replay: no recorded fetch call matches this request');

    const candidate = join(dir, 'candidate.json');
    const ordered = await runbackAsync(
      [
        'replay',
        baseline,
        '--mode',
        'ordered',
        '--out',
        candidate,
        '--',
        process.execPath,
        QUOTE,
        server.url,
      ],
      { APPLICANT: 'B-7' },
    );
    expect(ordered.status, ordered.stderr).toBe(1);
    expect(ordered.stdout).toContain('"applicant":"B-7"');
    expect(ordered.stderr).toContain('DIVERGED at call 1 (fetch): the request differs');

    const diff = await runbackAsync(['diff', baseline, candidate, '--json']);
    expect(diff.status).toBe(1);
    const result = JSON.parse(diff.stdout) as {
      steps: { change: string; type: string; name: string; input: unknown[] }[];
      run: { output: { path: string }[] };
    };
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({
      change: 'changed',
      type: 'env',
      name: 'fetch',
      input: [
        {
          op: 'replace',
          path: '/body/text',
          before: '{"applicant":"A-1029"}',
          after: '{"applicant":"B-7"}',
        },
      ],
    });
    expect(result.run.output.map((c) => c.path)).toEqual(expect.arrayContaining(['/stdout/text']));
  });

  it('refuses a record that does not verify (exit 2) and usage mistakes (exit 64)', async () => {
    const dir = tempDir();
    const server = await quoteServer();
    const baseline = join(dir, 'baseline.json');
    expect(
      (
        await runbackAsync([
          'record',
          '--out',
          baseline,
          '--',
          process.execPath,
          STEADY,
          server.url,
        ])
      ).status,
    ).toBe(0);
    await server.close();
    const tampered = join(dir, 'tampered.json');
    const text = readFileSync(baseline, 'utf8').replace('0.042', '0.041');
    spawnSync('sh', ['-c', `cat > ${tampered}`], { input: text });
    const r = await runbackAsync(['replay', tampered, '--', process.execPath, STEADY, server.url]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('refusing to replay');
    expect((await runbackAsync(['replay', baseline])).status).toBe(64);
    expect(
      (await runbackAsync(['replay', baseline, '--mode', 'sometimes', '--', 'true'])).status,
    ).toBe(64);
  });
});

describe('runback diff', () => {
  it('two records of identical work (different run ids and timestamps) diff empty, exit 0', async () => {
    const dir = tempDir();
    const server = await quoteServer();
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    expect(
      (await runbackAsync(['record', '--out', a, '--', process.execPath, STEADY, server.url]))
        .status,
    ).toBe(0);
    expect(
      (await runbackAsync(['record', '--out', b, '--', process.execPath, STEADY, server.url]))
        .status,
    ).toBe(0);
    await server.close();
    const diff = await runbackAsync(['diff', a, b]);
    expect(diff.stderr).toBe('');
    expect(diff.status, diff.stdout).toBe(0);
    expect(diff.stdout).toContain('no semantic difference');
    const json = await runbackAsync(['diff', a, b, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ equal: true, steps: [] });
  });

  it('exits 2 for a file that is not a record and 64 without two files', async () => {
    const dir = tempDir();
    const notRecord = join(dir, 'x.json');
    spawnSync('sh', ['-c', `echo '{"a":1}' > ${notRecord}`]);
    expect((await runbackAsync(['diff', notRecord, notRecord])).status).toBe(2);
    expect((await runbackAsync(['diff', notRecord])).status).toBe(64);
  });
});
