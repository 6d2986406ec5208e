// The fixed corpus (test/vectors/index.json) re-verified through the library, in every JSON
// reading (verify.ts: JsonReading): same verdict, checks and error codes as index.json. The
// @runback/verify-cli tests run it through both `runback-verify` bins, the @runback/cli tests
// through `runback verify`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus, type CorpusCase } from '../../../test-support/corpus.js';
import type { VerifyOptions, VerifyResult } from '../src/index.js';
import { verifyJsonWith, type JsonReading } from '../src/verify.js';

const vectors = CORPUS_DIR;
const corpus = { cases: loadCorpus() };

function optionsOf(trust: CorpusCase['trust']): VerifyOptions {
  const pem = (f: string) => readFileSync(join(vectors, f), 'utf8');
  const options: { pinned?: string[]; revoked?: string[]; hmacKey?: string } = {};
  if (trust.pinned) options.pinned = trust.pinned.map(pem);
  if (trust.revoked) options.revoked = trust.revoked.map(pem);
  if (trust.hmac_key !== undefined) options.hmacKey = trust.hmac_key;
  return options;
}

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

describe('verify corpus', () => {
  it('covers valid, tampered and malformed records', () => {
    const groups = new Set(corpus.cases.map((c) => c.file.split('/')[0]));
    expect([...groups].sort()).toEqual(['malformed', 'tampered', 'valid']);
    expect(corpus.cases.length).toBeGreaterThanOrEqual(45);
  });

  for (const reading of ['fast', 'canonical', 'canonical-js', 'plain'] satisfies JsonReading[]) {
    describe(`library: verifyJson, ${reading} reading`, () => {
      for (const c of corpus.cases) {
        it(`${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]: ${c.description}`, () => {
          const bytes = readFileSync(join(vectors, c.file));
          expectMatches(verifyJsonWith(bytes, optionsOf(c.trust), reading), c.expected);
        });
      }
    });
  }
});
