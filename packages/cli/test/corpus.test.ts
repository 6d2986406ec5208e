// The verify corpus (packages/verify/test/vectors) through the built `runback verify`: the
// third call site of the same verdicts. Cases that share trust options go through one process,
// several files at once, which also exercises the one-JSON-line-per-file output and the
// worst-status exit rule.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const vectors = join(here, '..', '..', 'verify', 'test', 'vectors');
const bin = join(here, '..', 'dist', 'bin.js');

interface CorpusCase {
  file: string;
  description: string;
  trust: { pinned?: string[]; revoked?: string[]; hmac_key?: string };
  expected: { verdict: string; exit: number; checks: Record<string, unknown>; error_codes: string[] };
}

const { cases } = JSON.parse(readFileSync(join(vectors, 'index.json'), 'utf8')) as { cases: CorpusCase[] };

function flagsOf(trust: CorpusCase['trust']): string[] {
  const flags: string[] = [];
  for (const f of trust.pinned ?? []) flags.push('--pubkey', join(vectors, f));
  for (const f of trust.revoked ?? []) flags.push('--revoked', join(vectors, f));
  if (trust.hmac_key !== undefined) flags.push('--key', trust.hmac_key);
  return flags;
}

const groups = new Map<string, CorpusCase[]>();
for (const c of cases) {
  const key = JSON.stringify(c.trust);
  groups.set(key, [...(groups.get(key) ?? []), c]);
}

const rank = (code: number): number => (code === 1 ? 2 : code === 2 ? 1 : 0);

describe('verify corpus through the built runback CLI', () => {
  it('reads the whole corpus', () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
  });

  for (const [trust, group] of groups) {
    it(`${group.length} case(s) with trust ${trust}`, () => {
      const run = spawnSync(process.execPath, [bin, 'verify', ...group.map((c) => join(vectors, c.file)), '--json', ...flagsOf(group[0]!.trust)], {
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(group.length);
      group.forEach((c, i) => {
        const result = JSON.parse(lines[i]!) as { verdict: string; checks: unknown; errors: { code: string }[] };
        expect({ file: c.file, verdict: result.verdict, checks: result.checks, codes: result.errors.map((e) => e.code) }).toEqual({
          file: c.file,
          verdict: c.expected.verdict,
          checks: c.expected.checks,
          codes: c.expected.error_codes,
        });
      });
      const worst = group.map((c) => c.expected.exit).reduce((a, b) => (rank(b) > rank(a) ? b : a), 0);
      expect(run.status).toBe(worst);
    });
  }
});
