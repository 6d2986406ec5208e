// The built service and key command as processes: `api-key create/list/revoke` against the
// SQLite file, the server starting on it and using the key, request ids in the JSON logs, and a
// graceful SIGTERM that lets an in-flight request finish.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './support/app.js';
import { startServerProcess } from './support/server-process.js';

const API_KEY_JS = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'api-key.js');

function apiKey(dataDir: string, ...args: string[]) {
  const out = spawnSync(process.execPath, [API_KEY_JS, ...args], {
    env: { PATH: process.env['PATH'] ?? '', RUNBACK_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('api-key command and server process', () => {
  it('issues, lists and revokes keys in the database the server uses', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'runback-proc-'));
    const created = apiKey(dataDir, 'create', '--project', 'acme', '--label', 'ci', '--json');
    expect(created.status).toBe(0);
    const issued = JSON.parse(created.stdout) as { id: string; token: string; project: string };
    expect(issued.token).toMatch(/^rbk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const human = apiKey(dataDir, 'create', '--project', 'acme');
    expect(human.stdout).toMatch(/Shown once/);
    const listed = JSON.parse(apiKey(dataDir, 'list', '--project', 'acme', '--json').stdout) as {
      api_keys: { id: string; token?: string }[];
    };
    expect(listed.api_keys).toHaveLength(2);
    expect(listed.api_keys.every((k) => k.token === undefined)).toBe(true);
    expect(apiKey(dataDir, 'create').status).toBe(64);
    expect(JSON.parse(apiKey(dataDir, 'revoke', 'nope', '--json').stdout)).toMatchObject({
      error: { code: 'NOT_FOUND' },
    });

    const server = await startServerProcess({ RUNBACK_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    try {
      const auth = { authorization: `Bearer ${issued.token}` };
      expect((await fetch(`${server.url}/api/runs`, { headers: auth })).status).toBe(200);
      const res = await fetch(`${server.url}/api/runs`, {
        headers: { ...auth, 'x-request-id': 'trace-42' },
      });
      expect(res.headers.get('x-request-id')).toBe('trace-42');
      // Over real HTTP too: a 9 MiB body is refused with 413.
      const big = await fetch(`${server.url}/api/audit/verify`, {
        method: 'POST',
        body: new Uint8Array(9 * 1024 * 1024).fill(0x20),
      });
      expect(big.status).toBe(413);
      expect(await big.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
      expect(apiKey(dataDir, 'revoke', issued.id).status).toBe(0);
      expect((await fetch(`${server.url}/api/runs`, { headers: auth })).status).toBe(401);
      expect(
        (
          await fetch(`${server.url}/api/admin/api-keys`, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          })
        ).status,
      ).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      lines.some(
        (l) => l['req_id'] === 'trace-42' && l['status'] === 200 && l['path'] === '/api/runs',
      ),
    ).toBe(true);
    expect(
      lines.some(
        (l) => typeof l['msg'] === 'string' && /generated a development Ed25519 key/.test(l['msg']),
      ),
    ).toBe(true);
    expect(lines.at(-1)).toMatchObject({ msg: 'runback api stopped' });
  });

  it('on SIGTERM stops accepting, finishes the in-flight request, then exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'runback-proc-'));
    const server = await startServerProcess({ RUNBACK_DATA_DIR: dataDir });
    const url = new URL(`${server.url}/api/audit/verify`);
    // A verify request whose body is still being sent when SIGTERM arrives.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"$schema":"runback.audit/v2",');
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end('"manifest":{},"run":{},"events":[]}'), 300);
      }, 200);
    });
    const done = await answer;
    expect(done.status).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({ verdict: 'invalid', checks: { schema: true } });
    expect(await server.stop()).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
