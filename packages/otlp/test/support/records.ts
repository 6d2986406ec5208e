// Records for the tests: the repository's example record, re-sealed under a test key so the
// tests hold the private key, and small records built event by event.
import { readFileSync } from 'node:fs';
import {
  generateEd25519KeyPair,
  privateKeyToPem,
  publicKeyToPem,
  sealRecord,
  type SealedRecord,
} from '@runback/sign';
import { verifyJson, type VerifyResult } from '@runback/verify';

export const EXAMPLE_PATH = new URL(
  '../../../../examples/records/loan-approval.json',
  import.meta.url,
).pathname;
export const FAILURE_PATH = new URL(
  '../../../../examples/records/triage-failure.json',
  import.meta.url,
).pathname;
export const GENERATED_AT = '2026-06-14T02:47:14.000Z';

const pair = generateEd25519KeyPair();
/** A signing key for the tests, as PEM. */
export const TEST_KEY = {
  privatePem: privateKeyToPem(pair.privateKey),
  publicPem: publicKeyToPem(pair.publicKey),
};

/** A record file parsed. */
export function readRecord(path: string): SealedRecord {
  return JSON.parse(readFileSync(path, 'utf8')) as SealedRecord;
}

/** The record's run and events sealed and signed with the test key. */
export function resealed(record: { run: object; events: readonly object[] }): SealedRecord {
  return sealRecord(
    { run: record.run, events: record.events.map(withoutHash) },
    { generatedAt: GENERATED_AT, signer: { alg: 'Ed25519', privateKey: TEST_KEY.privatePem } },
  );
}

/** Verification with the test key pinned. */
export function verified(record: unknown): VerifyResult {
  return verifyJson(JSON.stringify(record), { pinned: [TEST_KEY.publicPem] });
}

function withoutHash(event: object): object {
  const { _hash: _, ...rest } = event as Record<string, unknown>;
  return rest;
}
