// `runback replay --tools recorded|live` on a program that records its own tool() call: with
// recorded tools (the default) a changed tool implementation reproduces and the report says the
// bodies did not run; with live tools the body runs, its fetch, clock and random reads answered
// from the record (the service stopped), and a changed implementation diverges at that tool.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lastJsonLine, runbackAsync, tempDir } from './support.js';

const PROGRAM = fileURLToPath(new URL('./fixtures/tool-program.mjs', import.meta.url));

describe('runback replay --tools', () => {
  it('recorded serves the tool and says so; live runs its body on recorded reads and catches a changed implementation', async () => {
    let hits = 0;
    const server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on('end', () => res.end('{"rate":0.042}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rate`;
    const dir = tempDir();
    const baseline = join(dir, 'baseline.json');
    const recorded = await runbackAsync([
      'record',
      '--out',
      baseline,
      '--',
      process.execPath,
      PROGRAM,
      url,
    ]);
    expect(recorded.status, recorded.stderr).toBe(0);
    expect(JSON.parse(recorded.stdout)).toMatchObject({ total: 103 });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(hits).toBe(1);

    const replay = (flags: string[], env: Record<string, string> = {}) =>
      runbackAsync(['replay', baseline, ...flags, '--', process.execPath, PROGRAM, url], env);

    // The default: the changed tool is never run, so the replay reproduces, and says why.
    const served = await replay([], { PRICE_VERSION: '2' });
    expect(served.status, served.stderr).toBe(0);
    expect(served.stdout).toBe(recorded.stdout);
    expect(served.stderr).toContain(
      'tools      1 tool() call answered from the record, its body not run (--tools live runs it)',
    );

    // Live, unchanged: the body runs, its fetch, Date.now and Math.random served from the record.
    const live = await replay(['--tools', 'live', '--json']);
    expect(live.status, live.stderr).toBe(0);
    expect(live.stdout).toBe(recorded.stdout);
    expect(lastJsonLine(live.stderr)).toMatchObject({
      status: 'reproduced',
      tools: 'live',
      tool_calls: 1,
    });

    // Live, changed: the divergence is the tool, with its output's difference.
    const changed = await replay(['--tools', 'live'], { PRICE_VERSION: '2' });
    expect(changed.status).toBe(1);
    expect(JSON.parse(changed.stdout)).toMatchObject({ total: 104 });
    expect(changed.stderr).toContain('DIVERGED at call 1 (tool price): the answer differs');
    expect(changed.stderr).toMatch(/\/total.*103.*104/);
    expect(changed.stderr).toContain(
      'tools      1 tool() call run live, its own calls answered from the record',
    );
    expect(hits).toBe(1);

    const bad = await replay(['--tools', 'sometimes', '--json']);
    expect(bad.status).toBe(64);
    expect(lastJsonLine(bad.stderr)).toMatchObject({ error: { code: 'USAGE_BAD_TOOLS' } });
  });
});
