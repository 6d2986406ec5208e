// `runback recover` checks a journal's line MACs before it signs: a journal written under a key,
// edited and re-chained by someone without it, is refused and nothing is written at OUT; a
// journal without MACs is signed only with --allow-unauthenticated; a refused record never
// appears at OUT, and a temporary file left by a killed recover is removed by the next one.
import { canonicalWithout, sha256Hex } from '@runback/canonical';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI, tempDir } from './support.js';

const SDK = new URL('../node_modules/@runback/sdk/dist/index.js', import.meta.url).href;

function runback(args: string[]) {
  return spawnSync(process.execPath, [BUILT_CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

/** The journal of a run killed after one tool call, written with `key` (PEM file) if given. */
function interruptedJournal(dir: string, key?: string): string {
  const out = join(dir, 'run.json');
  const signer =
    key === undefined
      ? ''
      : `signer: { alg: 'Ed25519', privateKey: ${JSON.stringify(readFileSync(key, 'utf8'))} },`;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { startRun, tool } = await import(${JSON.stringify(SDK)});
       const run = startRun({ name: 'x', out: ${JSON.stringify(out)}, journal: true, ${signer} });
       await run.run(async () => { await tool('t', { a: 1 }, () => 2); await tool('u', 3, () => 4); });
       process.exit(0);`,
    ],
    { encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
  return `${out}.journal`;
}

/** The journal with tool t's output changed and every _hash after it recomputed (no key). */
function rechain(journal: string, keepMacs: boolean): void {
  const lines = readFileSync(journal, 'utf8').split('\n').slice(0, -1);
  let head = '';
  const out = [lines[0] as string];
  for (const line of lines.slice(1)) {
    const tab = line.lastIndexOf('\t');
    const text = tab === -1 ? line : line.slice(0, tab);
    const event = JSON.parse(text) as Record<string, unknown>;
    if (event['tool_name'] === 't') event['output'] = 999;
    head = sha256Hex(head + canonicalWithout(event, '_hash'));
    const sealed = JSON.stringify({ ...event, _hash: head });
    out.push(keepMacs && tab !== -1 ? `${sealed}${line.slice(tab)}` : sealed);
  }
  writeFileSync(journal, out.map((l) => `${l}\n`).join(''));
}

function keygen(dir: string): string {
  const r = runback(['keygen', '--out', dir]);
  expect(r.status, r.stderr).toBe(0);
  return join(dir, 'runback.key.pem');
}

describe('runback recover: authenticated journals', () => {
  it('recovers an intact authenticated journal, every line MAC checked', () => {
    const dir = tempDir();
    const key = keygen(dir);
    const journal = interruptedJournal(dir, key);
    const r = runback(['recover', journal, '--key', key, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      journal_authentication: 'checked',
      verdict: 'valid',
    });
  });

  it('refuses a journal edited and re-chained without the key, and writes nothing at OUT', () => {
    const dir = tempDir();
    const key = keygen(dir);
    const journal = interruptedJournal(dir, key);
    rechain(journal, true);
    const out = join(dir, 'recovered.json');
    const r = runback(['recover', journal, '--out', out, '--key', key, '--json']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('line 3');
    expect(r.stderr).toContain("expected the line's MAC to match the signing key");
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a journal with its MACs and header auth stripped unless --allow-unauthenticated', () => {
    const dir = tempDir();
    const key = keygen(dir);
    const journal = interruptedJournal(dir, key);
    rechain(journal, false);
    const lines = readFileSync(journal, 'utf8').split('\n');
    const header = JSON.parse((lines[0] as string).split('\t')[0] as string) as Record<
      string,
      unknown
    >;
    delete header['auth'];
    lines[0] = JSON.stringify(header);
    writeFileSync(journal, lines.join('\n'));
    const out = join(dir, 'recovered.json');
    const r = runback(['recover', journal, '--out', out, '--key', key]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('carries no line MACs');
    expect(r.stderr).toContain('--allow-unauthenticated');
    expect(existsSync(out)).toBe(false);
    const allowed = runback([
      'recover',
      journal,
      '--out',
      out,
      '--key',
      key,
      '--allow-unauthenticated',
      '--json',
    ]);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ journal_authentication: 'none' });
  });

  it('an unsigned journal recovers unsigned without a key, reported as unauthenticated', () => {
    const dir = tempDir();
    const journal = interruptedJournal(dir);
    const r = runback(['recover', journal, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ journal_authentication: 'none', signed: false });
  });

  it('a temporary file left by a killed recover (its pid gone) is removed by the next run', () => {
    const dir = tempDir();
    const journal = interruptedJournal(dir);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    const stale = join(dir, `.run.json.recover-${dead}-0123456789ab.tmp`);
    const live = join(dir, `.run.json.recover-${process.pid}-0123456789ab.tmp`);
    writeFileSync(stale, 'half a record');
    writeFileSync(live, 'a recover still running');
    expect(runback(['recover', journal]).status).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
