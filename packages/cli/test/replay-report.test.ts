// What `runback replay` and `runback diff` say about a changed prompt, end to end through the
// built CLI: the strict replay names the model call that missed, the recorded call it was
// compared with and the changed words of the system prompt, 200 characters in; the ordered
// replay's record diffs against the baseline showing the same words.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runbackAsync, tempDir } from './support.js';

const PROGRAM = fileURLToPath(new URL('./fixtures/prompt-program.mjs', import.meta.url));

/** A chat-completions endpoint answering every request the same; closed before replays. */
async function modelServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1_790_000_000,
          model: 'gpt-4o-mini',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Approve: income and score meet the policy.' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 120, completion_tokens: 9, total_tokens: 129 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a prompt changed 200 characters in', () => {
  it('is named, with its changed words, by runback replay and runback diff', async () => {
    const dir = tempDir();
    const server = await modelServer();
    const baseline = join(dir, 'baseline.json');
    const program = [process.execPath, PROGRAM, server.url];
    const recorded = await runbackAsync(['record', '--out', baseline, '--', ...program]);
    expect(recorded.status, recorded.stderr).toBe(0);
    await server.close();

    const changed = { POLICY: 'confirmed' };
    const strict = await runbackAsync(['replay', baseline, '--', ...program], changed);
    expect(strict.status, strict.stderr).toBe(1);
    const report = strict.stderr;
    expect(report).toContain(
      'DIVERGED at call 1 (llm gpt-4o-mini): no recorded call answers it (a replay miss',
    );
    expect(report).toContain('nearest recorded call 1 (seq 1)');
    expect(report).toMatch(/request +~ \/messages\/0\/content {2}text changed at character 2\d\d /);
    expect(report).toContain('when the income is [-verified-]{+confirmed+} and the score');

    const json = await runbackAsync(['replay', baseline, '--json', '--', ...program], changed);
    const line = JSON.parse(json.stderr.trim().split('\n').at(-1) as string) as {
      divergence: Record<string, unknown>;
    };
    expect(line.divergence).toMatchObject({
      call: 1,
      kind: 'llm',
      reason: 'miss',
      nearest: { call: 1, seq: 1 },
      departure: null,
      input: [{ op: 'replace', path: '/messages/0/content' }],
    });

    const candidate = join(dir, 'candidate.json');
    const flags = ['--mode', 'ordered', '--out', candidate];
    const ordered = await runbackAsync(['replay', baseline, ...flags, '--', ...program], changed);
    expect(ordered.stdout).toBe(recorded.stdout);
    const diff = await runbackAsync(['diff', baseline, candidate]);
    expect(diff.status, diff.stderr).toBe(1);
    expect(diff.stdout).toMatch(
      /input +~ \/request\/messages\/0\/content {2}text changed at character 2\d\d /,
    );
    expect(diff.stdout).toContain('when the income is [-verified-]{+confirmed+} and the score');
  });
});
