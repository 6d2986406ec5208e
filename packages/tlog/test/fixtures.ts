// Keys and heads for the tlog tests. The log and witness keys are derived from fixed seeds so
// failures reproduce; they are test keys, never to be used for a real log.
import { generateEd25519KeyPair } from '@runback/sign';
import type { RecordHead } from '../src/record-head.js';

export const LOG_ORIGIN = 'runback.test/log';
export const LOG_KEY = generateEd25519KeyPair(new Uint8Array(32).fill(7));
export const WITNESS_KEY = generateEd25519KeyPair(new Uint8Array(32).fill(9));
export const OTHER_KEY = generateEd25519KeyPair(new Uint8Array(32).fill(11));

/** A head with digests derived from `i` (64 lowercase hex digits each). */
export function headOf(i: number): RecordHead {
  const hex = (n: number) => n.toString(16).padStart(8, '0').repeat(8);
  return { run_id: `run_${i}`, content_digest: hex(i), cassette_digest: hex(i + 0x10000) };
}
