// The README's example, run as written: issue a key with the api-key command, then the curl
// command that starts a run (against a server on a free port instead of 8787).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from './support/server-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, '..', 'README.md'), 'utf8');

describe('README example', () => {
  it('starts a run with the documented curl command', async () => {
    const block =
      /```sh\n(pnpm --filter @runback\/api api-key create[^\n]*)\n(curl[\s\S]*?)\n```/.exec(readme);
    expect(block).not.toBeNull();
    const [, createLine, curl] = block as unknown as [string, string, string];
    const project = /--project (\S+)/.exec(createLine)?.[1] as string;
    const dataDir = mkdtempSync(join(tmpdir(), 'runback-readme-'));
    const env = { PATH: process.env['PATH'] ?? '', RUNBACK_DATA_DIR: dataDir };
    const created = JSON.parse(
      execFileSync(
        process.execPath,
        [join(here, '..', 'dist', 'api-key.js'), 'create', '--project', project, '--json'],
        { env, encoding: 'utf8' },
      ),
    ) as { token: string };
    const server = await startServerProcess(env);
    try {
      const command = curl.split('#')[0]!.replace('http://127.0.0.1:8787', server.url);
      const out = spawnSync('bash', ['-c', command], {
        env: { ...env, TOKEN: created.token },
        encoding: 'utf8',
      });
      expect(out.status).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({
        name: 'refund-check',
        status: 'running',
        event_count: 1,
        sealed: false,
      });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
