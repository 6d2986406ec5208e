// The verify corpus (packages/verify/test/vectors) through the built `runback verify`: the
// third call site of the same verdicts. Cases that share trust options go through one process,
// several files at once, which also exercises the one-JSON-line-per-file output and the
// worst-status exit rule.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CORPUS_DIR,
  corpusFlags,
  loadCorpus,
  type CorpusCase,
} from '../../../test-support/corpus.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'dist', 'bin.js');
const cases = loadCorpus();

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
      const run = spawnSync(
        process.execPath,
        [
          bin,
          'verify',
          ...group.map((c) => join(CORPUS_DIR, c.file)),
          '--json',
          ...corpusFlags(group[0]!.trust),
        ],
        {
          encoding: 'utf8',
        },
      );
      expect(run.stderr).toBe('');
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(group.length);
      group.forEach((c, i) => {
        const result = JSON.parse(lines[i]!) as {
          verdict: string;
          checks: unknown;
          errors: { code: string }[];
        };
        expect({
          file: c.file,
          verdict: result.verdict,
          checks: result.checks,
          codes: result.errors.map((e) => e.code),
        }).toEqual({
          file: c.file,
          verdict: c.expected.verdict,
          checks: c.expected.checks,
          codes: c.expected.error_codes,
        });
      });
      const worst = group
        .map((c) => c.expected.exit)
        .reduce((a, b) => (rank(b) > rank(a) ? b : a), 0);
      expect(run.status).toBe(worst);
    });
  }
});
