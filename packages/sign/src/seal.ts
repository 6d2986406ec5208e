// Sealing: turning a run summary and its events into a signed record (format seed,
// "Structure", "Tamper evidence", "What makes it re-executable", "Tying a record to its
// producer"; format-decisions "Record", "Digests", "Signature").
//
// sealRecord is the one place that computes digests: each event's `_hash` by the event chain
// (array order; any `_hash` already present is recomputed, never trusted), the content digest,
// and the cassette digest over the oracle stream (seq order). The signature then covers the UTF-8
// payload `content_digest + ":" + cassette_digest`. signRecord only (re-)signs the two digests an
// already sealed manifest states: it does not recompute them, so it is for adding or rotating a
// signature on a record sealed earlier, not for repairing one.
//
// Both return new JSON data (deep copies) and never modify or share their input.

import { CanonicalError, canonical, canonicalOrder } from '@runback/canonical';
import { ChainBuilder } from '@runback/chain';
import { cassetteDigest } from '@runback/replay-digest';
import { expectBytes } from './bytes.js';
import { publicKeyFromPrivateKey, signEd25519 } from './ed25519.js';
import { SignError, describeValue, isBytes } from './errors.js';
import { hmacSha256Hex } from './hmac.js';
import { keyId } from './key-id.js';
import { privateKeyFromPem, publicKeyToPem } from './keys.js';
import { signaturePayload } from './payload.js';

/** The `$schema` every writer emits (format-decisions "Record"). */
const RECORD_SCHEMA = 'runback.audit/v2';

/**
 * Who signs a record. Ed25519 (preferred: proves who signed) takes a 32-byte private key
 * (seed) or PKCS#8 PEM text; HMAC-SHA256 (proves custody of a shared secret only) takes a
 * non-empty key, a string being its UTF-8 bytes.
 */
export type Signer =
  | { readonly alg: 'Ed25519'; readonly privateKey: Uint8Array | string }
  | { readonly alg: 'HMAC-SHA256'; readonly key: Uint8Array | string };

/** An Ed25519 `manifest.signature`: hex signature, the signer's SPKI PEM inline, its key id. */
export interface Ed25519Signature {
  readonly alg: 'Ed25519';
  /** 128 lowercase hex characters: R‖S (RFC 8032 §5.1.6). */
  readonly value: string;
  /** The signer's public key as SPKI PEM, so the record verifies offline. */
  readonly pubkey: string;
  /** `keyId(pubkey)`: lowercase hex SHA-256 of the SPKI DER. */
  readonly key_id: string;
}

/** An HMAC-SHA256 `manifest.signature`: the 64-character lowercase hex tag. */
export interface HmacSignature {
  readonly alg: 'HMAC-SHA256';
  readonly value: string;
}

/** A `manifest.signature` as this package writes it. */
export type RecordSignature = Ed25519Signature | HmacSignature;

/** The manifest of a sealed record, members in the order they are written. */
export interface SealedManifest {
  readonly run_id: string;
  readonly generated_at: string;
  readonly event_count: number;
  readonly algorithm: 'sha256-chain';
  readonly content_digest: string;
  readonly replay: {
    readonly cassette_digest: string;
    readonly entry_count: number;
    readonly algorithm: 'oracle-chain/sha256';
  };
  readonly signed: boolean;
  readonly signature?: RecordSignature;
}

/** A sealed event: the input event (deep-copied) with its chain hash in `_hash`. */
export type SealedEvent = Record<string, unknown> & { readonly _hash: string };

/** A sealed record: `$schema`, `manifest`, `run`, `events`, in that order. */
export interface SealedRecord {
  readonly $schema: 'runback.audit/v2';
  readonly manifest: SealedManifest;
  readonly run: Record<string, unknown>;
  readonly events: readonly SealedEvent[];
}

/** What {@link sealRecord} seals: the run summary and the events in recording order. */
export interface SealInput {
  /** The run summary; its `run_id` (a non-empty string) becomes `manifest.run_id`. */
  readonly run: object;
  /** The events, in the order the chain commits to. */
  readonly events: readonly object[];
  /** Ignored: writers always emit `runback.audit/v2`. Accepted so a record can be re-sealed. */
  readonly $schema?: string;
}

/** Options of {@link sealRecord}. There is no clock here: the caller supplies the time. */
export interface SealOptions {
  /** `manifest.generated_at`, ISO 8601 with milliseconds and `Z` by convention. */
  readonly generatedAt: string;
  /** The signer; without one the record is sealed unsigned (`signed: false`). */
  readonly signer?: Signer | undefined;
}

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
  if (!isPlainObject(input)) {
    throw recordInvalid(
      `expected the input to be an object { run, events }, got ${describeValue(input)}`,
    );
  }
  if (
    !isPlainObject(options) ||
    typeof options.generatedAt !== 'string' ||
    options.generatedAt === ''
  ) {
    throw new SignError(
      'ARG_INVALID_TYPE',
      `expected options.generatedAt to be a non-empty string, got ${describeValue(
        isPlainObject(options) ? options.generatedAt : options,
      )}`,
    );
  }
  const signer = options.signer === undefined ? undefined : checkSigner(options.signer);

  const run = jsonCopy(input.run, '/run');
  if (!isPlainObject(run))
    throw recordInvalid(`expected run to be an object, got ${describeValue(run)}`);
  const runId = run['run_id'];
  if (typeof runId !== 'string' || runId === '') {
    throw recordInvalid(
      `expected run.run_id to be a non-empty string, got ${describeValue(runId)}`,
    );
  }

  const inputEvents: unknown = input.events;
  if (!Array.isArray(inputEvents)) {
    throw recordInvalid(`expected events to be an array, got ${describeValue(inputEvents)}`);
  }
  const chain = new ChainBuilder();
  const seen = new Set<number>();
  const events: SealedEvent[] = [];
  inputEvents.forEach((event: unknown, index) => {
    if (!isPlainObject(event)) {
      throw recordInvalid(`expected events[${index}] to be an object, got ${describeValue(event)}`);
    }
    // A writer refuses what a verifier would reject in the `consistent` check (rule 5), and
    // the cassette's seq order must be well defined.
    const seq = event['seq'];
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
      throw recordInvalid(
        `expected events[${index}].seq to be an integer >= 0, got ${describeValue(seq)}`,
      );
    }
    if (seen.has(seq)) {
      throw recordInvalid(`expected events[${index}].seq to be unique, got ${seq} a second time`);
    }
    seen.add(seq);
    let hash: string;
    try {
      hash = chain.append(event);
    } catch (err) {
      throw relocate(err, `/events/${index}`);
    }
    // Hashed first, so the copy below can only meet values canonical() accepted. The stored
    // event is a JSON copy with its members in canonical order (`_hash` first): the data model
    // canonical() hashed, laid out so that a verifier can hash it with one native stringify
    // (docs/spec.md §7).
    events.push(canonicalOrder({ ...event, _hash: hash }) as SealedEvent);
  });

  const cassette = cassetteDigest(events);
  const contentDigest = chain.contentDigest;
  const manifest = buildManifest(
    {
      runId,
      generatedAt: options.generatedAt,
      eventCount: events.length,
      contentDigest,
      cassetteDigest: cassette.digest,
      entryCount: cassette.entryCount,
    },
    signer,
  );
  return { $schema: RECORD_SCHEMA, manifest, run, events };
}

/** What a manifest states: the run id, when it was sealed, and the digests of its events. */
export interface ManifestFacts {
  readonly runId: string;
  /** `manifest.generated_at`: the caller supplies the time (the trust core reads no clock). */
  readonly generatedAt: string;
  readonly eventCount: number;
  readonly contentDigest: string;
  readonly cassetteDigest: string;
  readonly entryCount: number;
}

/**
 * The manifest for digests already computed (by sealRecord, or incrementally by a recorder),
 * signed when a signer is given. One function, so every writer emits the same members in the
 * same order and signs the same payload.
 *
 * @throws {SignError} `SIGNER_INVALID` or a key error for a bad signer.
 */
export function buildManifest(facts: ManifestFacts, signer?: Signer | undefined): SealedManifest {
  const checked = signer === undefined ? undefined : checkSigner(signer);
  return {
    run_id: facts.runId,
    generated_at: facts.generatedAt,
    event_count: facts.eventCount,
    algorithm: 'sha256-chain',
    content_digest: facts.contentDigest,
    replay: {
      cassette_digest: facts.cassetteDigest,
      entry_count: facts.entryCount,
      algorithm: 'oracle-chain/sha256',
    },
    signed: checked !== undefined,
    ...(checked === undefined
      ? {}
      : {
          signature: signatureFor(
            signaturePayload(facts.contentDigest, facts.cassetteDigest),
            checked,
          ),
        }),
  };
}

/**
 * (Re-)signs a sealed record: replaces `manifest.signature` by a signature over the two digests
 * the manifest states (`content_digest` and `replay.cassette_digest`) and sets `signed: true`.
 * Nothing else is recomputed — use {@link sealRecord} to recompute hashes and digests. Other
 * manifest members are kept, in place. Returns a deep copy; the input is not modified.
 *
 * @throws {SignError} `RECORD_INVALID` when the record has no manifest object with string
 *   digests; `SIGNER_INVALID` or a key error for a bad signer.
 * @throws {CanonicalError} for a record holding a value with no JSON form.
 */
export function signRecord(record: SealedRecord, signer: Signer): SealedRecord {
  const checked = checkSigner(signer);
  const copy = jsonCopy(record, '');
  if (!isPlainObject(copy) || !isPlainObject(copy['manifest'])) {
    throw recordInvalid(
      `expected a sealed record with a manifest object, got ${describeValue(copy)}`,
    );
  }
  const manifest = copy['manifest'];
  const replay = manifest['replay'];
  const content = manifest['content_digest'];
  const cassette = isPlainObject(replay) ? replay['cassette_digest'] : undefined;
  if (typeof content !== 'string' || typeof cassette !== 'string') {
    throw recordInvalid(
      `expected manifest.content_digest and manifest.replay.cassette_digest to be strings, got ${describeValue(content)} and ${describeValue(cassette)}`,
    );
  }
  manifest['signed'] = true;
  manifest['signature'] = signatureFor(signaturePayload(content, cassette), checked);
  return copy as unknown as SealedRecord;
}

/** Validates a signer and resolves an Ed25519 PEM key to its seed. */
type CheckedSigner =
  | { readonly alg: 'Ed25519'; readonly privateKey: Uint8Array }
  | { readonly alg: 'HMAC-SHA256'; readonly key: Uint8Array | string };

function checkSigner(signer: unknown): CheckedSigner {
  if (!isPlainObject(signer)) {
    throw signerInvalid(`expected a signer object { alg, … }, got ${describeValue(signer)}`);
  }
  const alg = signer['alg'];
  if (alg === 'Ed25519') {
    const key = signer['privateKey'];
    if (typeof key === 'string') return { alg, privateKey: privateKeyFromPem(key) };
    if (isBytes(key)) return { alg, privateKey: expectBytes(key, 32, 'signer.privateKey') };
    throw signerInvalid(
      `expected signer.privateKey to be 32 bytes or PKCS#8 PEM text, got ${describeValue(key)}`,
    );
  }
  if (alg === 'HMAC-SHA256') {
    const key = signer['key'];
    if ((typeof key !== 'string' && !isBytes(key)) || key.length === 0) {
      // An empty key is refused: it is almost always an unset secret, and it proves nothing.
      throw signerInvalid(
        `expected signer.key to be a non-empty string or Uint8Array, got ${describeValue(key)}`,
      );
    }
    return { alg, key };
  }
  throw signerInvalid(
    `expected signer.alg to be "Ed25519" or "HMAC-SHA256", got ${describeValue(alg)}`,
  );
}

function signatureFor(payload: string, signer: CheckedSigner): RecordSignature {
  if (signer.alg === 'HMAC-SHA256') {
    return { alg: 'HMAC-SHA256', value: hmacSha256Hex(signer.key, payload) };
  }
  const publicKey = publicKeyFromPrivateKey(signer.privateKey);
  return {
    alg: 'Ed25519',
    value: signEd25519(payload, signer.privateKey),
    pubkey: publicKeyToPem(publicKey),
    key_id: keyId(publicKey),
  };
}

/**
 * A deep copy as JSON data. canonical() runs first because JSON.stringify would silently turn
 * NaN and Infinity into null, and writers must refuse them (format-decisions "Record").
 */
function jsonCopy(value: unknown, pointer: string): unknown {
  try {
    canonical(value);
  } catch (err) {
    throw relocate(err, pointer);
  }
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** Re-roots a CanonicalError's JSON Pointer at `prefix`, so it locates the value in the input. */
function relocate(err: unknown, prefix: string): unknown {
  if (!(err instanceof CanonicalError) || prefix === '') return err;
  const suffix = err.pointer === '' ? '' : ` at ${err.pointer}`;
  const message =
    suffix !== '' && err.message.endsWith(suffix)
      ? err.message.slice(0, -suffix.length)
      : err.message;
  return new CanonicalError(err.code, message, prefix + err.pointer);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordInvalid(message: string): SignError {
  return new SignError('RECORD_INVALID', message);
}

function signerInvalid(message: string): SignError {
  return new SignError('SIGNER_INVALID', message);
}
