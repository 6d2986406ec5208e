// Sealing: turning a run summary and its events into a signed record (docs/spec.md §3–§5, §7).
//
// sealRecord is the one place that computes digests, as a pipeline of named steps:
// readSealInput (check the arguments) → chainEvents (each `_hash` by the event chain in array
// order, the content digest) → cassetteDigest (the oracle stream in seq order) → buildManifest
// (the manifest, and with a signer the signature over the UTF-8 payload
// `content_digest + ":" + cassette_digest`). signRecord only (re-)signs the two digests an
// already sealed manifest states: it is for adding or rotating a signature on a record sealed
// earlier, not for repairing one.
//
// Both return new JSON data (deep copies) and never modify or share their input.
import { cassetteDigest } from '@runback/replay-digest';
import { chainEvents } from './chain-events.js';
import { buildManifest } from './manifest.js';
import { readSealInput } from './read-input.js';
import type { SealInput, SealOptions, SealedRecord } from './types.js';

export { buildManifest, type ManifestFacts } from './manifest.js';
export { signRecord } from './sign.js';
export type {
  Ed25519Signature,
  HmacSignature,
  RecordSignature,
  SealInput,
  SealOptions,
  SealedEvent,
  SealedManifest,
  SealedRecord,
  Signer,
} from './types.js';

/** The `$schema` every writer emits (docs/spec.md §5.1). */
const RECORD_SCHEMA = 'runback.audit/v2';

/**
 * Seals a record: computes every event's `_hash` (event chain, array order), the content
 * digest, the cassette digest and entry count (oracle stream, seq order), builds the manifest
 * and, with a signer, signs `content_digest + ":" + cassette_digest`.
 *
 * Returns a new record (deep-copied JSON data); the input is not modified. `_hash` values in the
 * input are recomputed, never trusted.
 *
 * @throws {SignError} `RECORD_INVALID` for input that is not `{ run: object, events: object[] }`,
 *   a run without a string `run_id`, or events whose `seq` values are not distinct integers
 *   >= 0; `ARG_INVALID_TYPE` for a bad `generatedAt`; `SIGNER_INVALID` or a key error for a bad
 *   signer.
 * @throws {CanonicalError} (code `CANONICAL_NON_FINITE_NUMBER`, …) for a value with no JSON form,
 *   NaN and Infinity included; its `pointer` locates it from the input root (`/events/3/…`).
 * @throws {ReplayDigestError} for an llm, tool or env event lacking its replay-key material.
 */
export function sealRecord(input: SealInput, options: SealOptions): SealedRecord {
  const { run, runId, events: inputEvents, generatedAt, signer } = readSealInput(input, options);
  const { events, contentDigest } = chainEvents(inputEvents);
  const cassette = cassetteDigest(events);
  const manifest = buildManifest(
    {
      runId,
      generatedAt,
      eventCount: events.length,
      contentDigest,
      cassetteDigest: cassette.digest,
      entryCount: cassette.entryCount,
    },
    signer,
  );
  return { $schema: RECORD_SCHEMA, manifest, run, events };
}
