// End to end: the SDK records a run with HttpSink → the API seals and signs it → /export →
// `runback verify --pubkey` with the key fetched from /.well-known says valid.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpSink, reasoning, record, tool } from '@runback/sdk';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './support/app.js';
import { startServerProcess } from './support/server-process.js';

const RUNBACK_BIN = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'packages',
  'cli',
  'dist',
  'bin.js',
);

describe('SDK with HttpSink → API → export → runback verify', () => {
  it('is valid with the published key, and holds the events the SDK recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'runback-e2e-'));
    const server = await startServerProcess({
      RUNBACK_DATA_DIR: join(dir, 'data'),
      RUNBACK_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    try {
      const issued = await fetch(`${server.url}/api/admin/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ project: 'e2e' }),
      });
      const { token } = (await issued.json()) as { token: string };
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
});
