// End to end: the SDK records a run with HttpSink → the API seals and signs it → /export →
// `runback verify --pubkey` with the key fetched from /.well-known says valid.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpSink, reasoning, record, tool } from '@runback/sdk';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './support/app.js';
import { issueToken, RUNBACK_BIN, startServerProcess } from './support/server-process.js';

describe('SDK with HttpSink → API → export → runback verify', () => {
  it('is valid with the published key, and holds the events the SDK recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'runback-e2e-'));
    const server = await startServerProcess({
      RUNBACK_DATA_DIR: join(dir, 'data'),
      RUNBACK_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    try {
      const token = await issueToken(server, 'e2e');
      const sink = new HttpSink({ url: server.url, apiKey: token, batchEvents: 3 });
      const local = join(dir, 'local.record.json');
      const { output } = await record(
        { name: 'loan-approval-agent', input: { applicant: 'A-1029' }, out: local, sink },
        async () => {
          const { score } = await tool(
            'get_credit_score',
            { applicant_id: 'A-1029' },
            async () => ({ score: 742 }),
          );
          reasoning('score above threshold', 'decision');
          for (let i = 0; i < 5; i++) await tool('lookup', { i }, async ({ i: n }) => ({ n }));
          return { decision: score >= 700 ? 'approve' : 'decline' };
        },
      );
      expect(output).toEqual({ decision: 'approve' });
      const delivered = await sink.close();
      const exported = await fetch(delivered.exportUrl, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(exported.status).toBe(200);
      const recordFile = join(dir, 'remote.record.json');
      const text = await exported.text();
      writeFileSync(recordFile, text);
      const keyFile = join(dir, 'service.pub.pem');
      writeFileSync(
        keyFile,
        await (await fetch(`${server.url}/.well-known/runback-audit-key.pem`)).text(),
      );

      const verified = spawnSync(
        process.execPath,
        [RUNBACK_BIN, 'verify', '--json', '--pubkey', keyFile, recordFile],
        { encoding: 'utf8' },
      );
      expect(verified.status).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({
        verdict: 'valid',
        checks: { signature: 'valid' },
      });

      // The service's record holds the SDK's events (its own run-start and run-end around them).
      const remote = JSON.parse(text) as {
        run: Record<string, unknown>;
        events: Record<string, unknown>[];
      };
      const mine = (
        JSON.parse((await import('node:fs')).readFileSync(local, 'utf8')) as {
          events: Record<string, unknown>[];
        }
      ).events;
      const strip = (events: Record<string, unknown>[]) =>
        events.filter((e) => e['type'] !== 'run').map(({ _hash: _h, run_id: _r, ...rest }) => rest);
      expect(strip(remote.events)).toEqual(strip(mine));
      expect(remote.run).toMatchObject({
        name: 'loan-approval-agent',
        status: 'success',
        output: { decision: 'approve' },
      });
      expect(remote.events).toHaveLength(mine.length);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('runback record delivers the run when RUNBACK_API_URL and RUNBACK_API_KEY are set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'runback-e2e-'));
    const server = await startServerProcess({
      RUNBACK_DATA_DIR: join(dir, 'data'),
      RUNBACK_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    try {
      const token = await issueToken(server, 'cli');
      const out = join(dir, 'cli.record.json');
      const program = "console.log('key:' + (process.env.RUNBACK_API_KEY ?? 'absent'))";
      const recorded = spawnSync(
        process.execPath,
        [RUNBACK_BIN, 'record', '--json', '--out', out, '--', process.execPath, '-e', program],
        {
          env: {
            PATH: process.env['PATH'] ?? '',
            RUNBACK_API_URL: server.url,
            RUNBACK_API_KEY: token,
          },
          encoding: 'utf8',
        },
      );
      expect(recorded.status).toBe(0);
      const report = JSON.parse(recorded.stderr.trim().split('\n').at(-1) as string) as {
        delivered: { run_id: string; export_url: string };
      };
      const auth = { authorization: `Bearer ${token}` };
      const list = (await (await fetch(`${server.url}/api/runs`, { headers: auth })).json()) as {
        runs: { run_id: string; sealed: boolean; status: string }[];
      };
      expect(list.runs).toEqual([
        expect.objectContaining({
          run_id: report.delivered.run_id,
          sealed: true,
          status: 'success',
        }),
      ]);
      const text = await (await fetch(report.delivered.export_url, { headers: auth })).text();
      const keys = (await (
        await fetch(`${server.url}/.well-known/runback-audit-keys.json`)
      ).json()) as { current: { pem: string } };
      const keyFile = join(dir, 'service.pub.pem');
      writeFileSync(keyFile, keys.current.pem);
      const recordFile = join(dir, 'remote.record.json');
      writeFileSync(recordFile, text);
      const verified = spawnSync(
        process.execPath,
        [RUNBACK_BIN, 'verify', '--pubkey', keyFile, recordFile],
        { encoding: 'utf8' },
      );
      expect(verified.status).toBe(0);
      // The recorded program never saw the API key.
      expect(
        (JSON.parse(text) as { run: { output: { stdout: { text: string } } } }).run.output.stdout
          .text,
      ).toBe('key:absent\n');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('runback record refuses RUNBACK_API_URL without RUNBACK_API_KEY before running anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'runback-e2e-'));
    const out = join(dir, 'never.json');
    const recorded = spawnSync(
      process.execPath,
      [RUNBACK_BIN, 'record', '--json', '--out', out, '--', process.execPath, '-e', '0'],
      {
        env: { PATH: process.env['PATH'] ?? '', RUNBACK_API_URL: 'http://127.0.0.1:9' },
        encoding: 'utf8',
      },
    );
    expect(recorded.status).toBe(64);
    expect(recorded.stderr).toMatch(
      /RUNBACK_API_URL is set: expected RUNBACK_API_KEY too, got none/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
