// What the log commits to for one record: its head, the three values that identify a sealed
// run (docs/spec.md §5: manifest.run_id, manifest.content_digest and
// manifest.replay.cassette_digest). The leaf data is the UTF-8 canonical JSON (spec §2) of the
// head, so any implementation derives the same leaf from the same record.
import { canonical } from '@runback/canonical';
import { describeValue, TlogError } from './errors.js';
import { leafHash } from './hash.js';

/** A record head: the run id and the record's two signed digests. */
export interface RecordHead {
  readonly run_id: string;
  readonly content_digest: string;
  readonly cassette_digest: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const encoder = new TextEncoder();

/**
 * Checks a head's members and returns a fresh head holding just those three.
 *
 * @throws {TlogError} `HEAD_INVALID` for a missing run id or a digest that is not 64
 *   lowercase hex digits.
 */
export function parseRecordHead(value: unknown): RecordHead {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TlogError(
      'HEAD_INVALID',
      `record head: expected an object, got ${describeValue(value)}`,
    );
  }
  const v = value as Record<string, unknown>;
  const runId = v['run_id'];
  if (typeof runId !== 'string' || runId === '') {
    throw new TlogError(
      'HEAD_INVALID',
      `record head: expected run_id to be a non-empty string, got ${describeValue(runId)}`,
    );
  }
  for (const name of ['content_digest', 'cassette_digest'] as const) {
    const digest = v[name];
    if (typeof digest !== 'string' || !SHA256_HEX.test(digest)) {
      throw new TlogError(
        'HEAD_INVALID',
        `record head: expected ${name} to be 64 lowercase hex digits, got ${describeValue(digest)}`,
      );
    }
  }
  return {
    run_id: runId,
    content_digest: v['content_digest'] as string,
    cassette_digest: v['cassette_digest'] as string,
  };
}

/**
 * The head of a sealed record, read from its manifest. It does not verify the record: a
 * caller logs or checks only a record that @runback/verify has accepted.
 *
 * @throws {TlogError} `HEAD_INVALID` when the manifest lacks a member or holds a bad digest.
 */
export function recordHeadOf(record: unknown): RecordHead {
  const manifest =
    typeof record === 'object' && record !== null
      ? (record as Record<string, unknown>)['manifest']
      : undefined;
  const m = (typeof manifest === 'object' && manifest !== null ? manifest : {}) as Record<
    string,
    unknown
  >;
  const replay = (
    typeof m['replay'] === 'object' && m['replay'] !== null ? m['replay'] : {}
  ) as Record<string, unknown>;
  return parseRecordHead({
    run_id: m['run_id'],
    content_digest: m['content_digest'],
    cassette_digest: replay['cassette_digest'],
  });
}

/** The canonical JSON text of a head: the log's leaf data, as text. */
export function recordHeadText(head: RecordHead): string {
  const h = parseRecordHead(head);
  return canonical({
    cassette_digest: h.cassette_digest,
    content_digest: h.content_digest,
    run_id: h.run_id,
  });
}

/** The Merkle leaf hash of a head: SHA-256(0x00 || UTF-8 canonical JSON of the head). */
export function recordLeafHash(head: RecordHead): Uint8Array {
  return leafHash(encoder.encode(recordHeadText(head)));
}
