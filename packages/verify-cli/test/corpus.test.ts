// The fixed verify corpus (packages/verify/test/vectors/index.json) through the executables a
// user runs: this package's `runback-verify` and the one `npx @runback/verify` starts (which
// calls into this package). Same verdict, checks, error codes and exit status as the library.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VerifyResult } from '@runback/verify';
import { describe, expect, it } from 'vitest';
import {
  CORPUS_DIR,
  corpusFlags,
  loadCorpus,
  type CorpusCase,
} from '../../../test-support/corpus.js';

const BINS = {
  '@runback/verify-cli': fileURLToPath(new URL('../bin/runback-verify.js', import.meta.url)),
  '@runback/verify': fileURLToPath(new URL('../../verify/bin/runback-verify.js', import.meta.url)),
};
const cases = loadCorpus();

function expectMatches(result: VerifyResult, expected: CorpusCase['expected']): void {
  expect(result.verdict).toBe(expected.verdict);
  expect(result.checks).toEqual(expected.checks);
  expect(result.errors.map((e) => e.code)).toEqual(expected.error_codes);
  if (expected.first_event_index !== undefined) {
    expect(result.errors.find((e) => e.event_index !== undefined)?.event_index).toBe(
      expected.first_event_index,
    );
  }
}

describe('verify corpus through runback-verify --json', () => {
  it('has the corpus to run', () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
  });

  for (const c of cases) {
    it(`${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]`, () => {
      const run = spawnSync(
        process.execPath,
        [BINS['@runback/verify-cli'], join(CORPUS_DIR, c.file), '--json', ...corpusFlags(c.trust)],
        { encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(c.expected.exit);
      expectMatches(JSON.parse(run.stdout) as VerifyResult, c.expected);
    });
  }
});

describe("@runback/verify's own bin (npx @runback/verify FILE)", () => {
  // Cases that share their keys run in one process: one JSON line per file, in order, and the
  // worst status of the group (invalid over unverified over valid).
  const groups = new Map<string, CorpusCase[]>();
  for (const c of cases) {
    const key = JSON.stringify(c.trust);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const group of groups.values()) {
    const trust = group[0]!.trust;
    it(`${group.length} case(s) [${Object.keys(trust).join(',') || 'no keys'}]`, () => {
      const run = spawnSync(
        process.execPath,
        [
          BINS['@runback/verify'],
          ...group.map((c) => join(CORPUS_DIR, c.file)),
          '--json',
          ...corpusFlags(trust),
        ],
        { encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(group.length);
      group.forEach((c, i) => expectMatches(JSON.parse(lines[i]!) as VerifyResult, c.expected));
      const exits = group.map((c) => c.expected.exit);
      expect(run.status).toBe(exits.includes(1) ? 1 : exits.includes(2) ? 2 : 0);
    });
  }

  it('prints the same human report as runback-verify', () => {
    const valid = cases.find((c) => c.expected.verdict === 'valid')!;
    const args = [join(CORPUS_DIR, valid.file), ...corpusFlags(valid.trust)];
    const [a, b] = Object.values(BINS).map((bin) =>
      spawnSync(process.execPath, [bin, ...args], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      }),
    );
    expect(a!.stdout).toMatch(/^VALID {2}/);
    expect(b!.stdout).toBe(a!.stdout);
    expect(b!.status).toBe(a!.status);
  });
});
