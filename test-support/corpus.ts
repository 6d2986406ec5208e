// The verify corpus (packages/verify/test/vectors/index.json), shared by the tests that run it
// through each call site: the library, the runback-verify bin and the runback CLI.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './vectors.js';

/** Folder of the corpus files and index.json. */
export const CORPUS_DIR = join(REPO_ROOT, 'packages', 'verify', 'test', 'vectors');

/** Which keys a case is verified with: PEM files relative to CORPUS_DIR, and an HMAC key. */
export interface CorpusTrust {
  pinned?: string[];
  revoked?: string[];
  hmac_key?: string;
}

/** One corpus case: a file, the keys, and the result every call site must give. */
export interface CorpusCase {
  file: string;
  description: string;
  trust: CorpusTrust;
  expected: {
    verdict: string;
    exit: number;
    checks: Record<string, unknown>;
    error_codes: string[];
    first_event_index?: number;
  };
}

/** All cases of index.json. */
export function loadCorpus(): CorpusCase[] {
  return (
    JSON.parse(readFileSync(join(CORPUS_DIR, 'index.json'), 'utf8')) as { cases: CorpusCase[] }
  ).cases;
}

/** The command-line flags that give a verify command the case's keys. */
export function corpusFlags(trust: CorpusTrust): string[] {
  const flags: string[] = [];
  for (const f of trust.pinned ?? []) flags.push('--pubkey', join(CORPUS_DIR, f));
  for (const f of trust.revoked ?? []) flags.push('--revoked', join(CORPUS_DIR, f));
  if (trust.hmac_key !== undefined) flags.push('--key', trust.hmac_key);
  return flags;
}

/** The library options that give verify the case's keys (PEM texts read from CORPUS_DIR). */
export function corpusOptions(trust: CorpusTrust): {
  pinned?: string[];
  revoked?: string[];
  hmacKey?: string;
} {
  const pem = (f: string): string => readFileSync(join(CORPUS_DIR, f), 'utf8');
  return {
    ...(trust.pinned ? { pinned: trust.pinned.map(pem) } : {}),
    ...(trust.revoked ? { revoked: trust.revoked.map(pem) } : {}),
    ...(trust.hmac_key !== undefined ? { hmacKey: trust.hmac_key } : {}),
  };
}
