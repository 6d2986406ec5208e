// A program that imports its own copy of @runback/sdk, recorded by a separately installed
// `runback record` (whose preload is another copy): the copy is this SDK's files in a project
// of their own, under another version. Same protocol: every tool() call is recorded, into the
// run the CLI's copy started, and the record replays. Another protocol: the first tool() call
// fails loudly, naming both versions; nothing is recorded silently nowhere.
import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runbackAsync, tempDir } from './support.js';

const SDK = fileURLToPath(new URL('../../sdk/', import.meta.url));

/** A project whose node_modules holds its own copy of the SDK at `version`. */
function projectWithOwnSdk(version: string, protocol?: number): string {
  const dir = tempDir();
  const copy = join(dir, 'node_modules', '@runback', 'sdk');
  mkdirSync(copy, { recursive: true });
  cpSync(join(SDK, 'dist'), join(copy, 'dist'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...manifest, version }));
  // The copy's dependencies resolve to the same packages the workspace's SDK uses.
  for (const name of Object.keys(manifest.dependencies)) {
    const target = join(dir, 'node_modules', name);
    mkdirSync(join(target, '..'), { recursive: true });
    symlinkSync(join(SDK, 'node_modules', name), target);
  }
  if (protocol !== undefined) {
    let patched = 0;
    for (const file of readdirSync(join(copy, 'dist'))) {
      if (!file.endsWith('.js')) continue;
      const path = join(copy, 'dist', file);
      const text = readFileSync(path, 'utf8');
      const next = text.replace(/\bSDK_PROTOCOL = 1;/g, `SDK_PROTOCOL = ${protocol};`);
      if (next !== text) patched++;
      writeFileSync(path, next);
    }
    expect(patched).toBeGreaterThan(0);
  }
  writeFileSync(
    join(dir, 'agent.mjs'),
    `import { tool, wrapTools } from '@runback/sdk';
const tools = wrapTools({ income: async ({ id }) => ({ id, income: 52000 }) });
const score = await tool('get_score', { id: 'A-1' }, async () => ({ score: 712 }));
const bureau = await tool('lookup', { id: 'A-1', score }, () => ({ bureau: 'X' }));
const [a, b] = await Promise.all([tools.income({ id: 'A-1' }), tool('fraud', { id: 'A-1' }, () => ({ flagged: false }))]);
console.log(JSON.stringify({ score, bureau, a, b }));
`,
  );
  return dir;
}

interface Ev {
  type: string;
  tool_name?: string;
  span_id: string;
  parent_span_id: string | null;
}

describe('two copies of @runback/sdk in one program', () => {
  it('of one protocol: every tool() call of the program’s own copy is recorded, and replays', async () => {
    const dir = projectWithOwnSdk('9.9.9-own-copy');
    const out = join(dir, 'record.json');
    const agent = join(dir, 'agent.mjs');
    const recorded = await runbackAsync(['record', '--out', out, '--', process.execPath, agent]);
    expect(recorded.status, recorded.stderr).toBe(0);
    const events = (JSON.parse(readFileSync(out, 'utf8')) as { events: Ev[] }).events;
    const tools = events.filter((e) => e.type === 'tool');
    expect(tools.map((e) => e.tool_name).sort()).toEqual([
      'fraud',
      'get_score',
      'income',
      'lookup',
    ]);
    // In the run the CLI's copy started: children of its run span.
    const root = events.find((e) => e.type === 'run') as Ev;
    for (const e of tools) expect(e.parent_span_id).toBe(root.span_id);
    // Intact (exit 2: unsigned, so its signer is not proven; 1 would be an invalid record).
    const verified = await runbackAsync(['verify', out, '--json']);
    expect(JSON.parse(verified.stdout)).toMatchObject({ verdict: 'unverified', integrity: true });

    const replayed = await runbackAsync(['replay', out, '--', process.execPath, agent]);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(replayed.stderr).toContain('REPRODUCED');
  });

  it('of another protocol: the first tool() call fails loudly, naming both versions', async () => {
    const dir = projectWithOwnSdk('7.0.0-other', 2);
    const out = join(dir, 'record.json');
    const agent = join(dir, 'agent.mjs');
    const r = await runbackAsync(['record', '--out', out, '--', process.execPath, agent]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('SDK_COPY_MISMATCH');
    expect(r.stderr).toMatch(/@runback\/sdk 7\.0\.0-other, protocol 2/);
    expect(r.stderr).toMatch(/@runback\/sdk 0\.0\.0, protocol 1/);
  });
});
