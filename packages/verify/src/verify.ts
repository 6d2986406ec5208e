// verify(record): the pipeline every call site runs (docs/spec.md §5). Six named steps, each
// with its own error codes; each step runs on whatever parts of the record it can read, so a
// report shows every problem at once. It does no I/O, never throws on any input, and returns
// the result object of the format decisions.
import { decodeJsonInput, parseJsonStrictSpans } from './json/index.js';
import { readJsonData, type JsonDataResult } from './json-data.js';
import { scanCanonicalEvents } from './fast-path/canonical-events.js';
import { canonicalizeEvents, CanonicalizedEvents } from './fast-path/canonicalized-events.js';
import {
  readRecordAroundViews,
  ViewReader,
  withViews,
  type RecordAroundViews,
  type RecordWithViews,
} from './fast-path/event-views.js';
import type { ProvenSpans } from './json/index.js';
import type { KnownMemberTexts } from '@runback/replay-digest';
import type { KnownEventTexts } from './steps/chain.js';
import { verdictOf, type VerifyError, type VerifyResult } from './result.js';
import { checkCassette, type CassetteStepResult } from './steps/cassette.js';
import { checkChain } from './steps/chain.js';
import { checkConsistent } from './steps/consistent.js';
import { partsOf, type RecordParts, type StepResult } from './steps/context.js';
import { checkDigest } from './steps/digest.js';
import { EventSteps } from './steps/event-steps.js';
import { InOrderCassette } from './steps/in-order-cassette.js';
import { checkSchema } from './steps/schema.js';
import { checkRecordSignature, type SignatureStepResult } from './signature/step.js';
import { assertTrustPolicy, type TrustPolicy } from './signature/trust.js';

/**
 * Whom to trust. `pinned`: Ed25519 public keys (SPKI PEM text, raw 32 bytes or SPKI DER) whose
 * signatures make a record `valid` — the current key and rotated-out ones. `revoked`: keys
 * whose signatures make a record `invalid`. `hmacKey`: the shared secret for HMAC-SHA256 records,
 * or a list of them (the current secret and rotated-out ones): a tag matching any one is valid.
 */
export type VerifyOptions = TrustPolicy;

/**
 * Verifies a parsed record. Never throws on a malformed record. The record must be JSON data
 * (what JSON.parse returns): a class instance, an accessor, a `toJSON` method or a symbol-keyed
 * member gives `invalid` with code VERIFY_NOT_JSON_DATA.
 *
 * @throws {SignError} (a TypeError, code TRUST_POLICY_INVALID) for malformed options, e.g. a
 * pinned key that is not an Ed25519 public key.
 */
export function verify(record: unknown, options: VerifyOptions = {}): VerifyResult {
  // The options are the caller's own configuration: a malformed one is an error, not a verdict.
  assertTrustPolicy(options);
  // Only JSON data: a getter, toJSON or class instance could hash one value and show another.
  let data: JsonDataResult;
  try {
    data = readJsonData(record);
  } catch (err) {
    data = {
      ok: false,
      problem: `expected JSON data, got an object that fails to be read: ${(err as Error)?.message ?? String(err)}`,
    };
  }
  if (!data.ok)
    return failure({ check: 'schema', code: 'VERIFY_NOT_JSON_DATA', message: data.problem });
  return verifyWithPolicy(data.value, options);
}

/**
 * Verifies a record given as JSON text or bytes (file, stdin, HTTP body, pasted text): strict
 * UTF-8, duplicate member names rejected, nesting over 512 rejected, then `verify`.
 */
export function verifyJson(input: string | Uint8Array, options: VerifyOptions = {}): VerifyResult {
  return verifyJsonWith(input, options, 'canonical');
}

/**
 * How JSON text is read: `canonical` (the default) canonicalizes and hashes every event from
 * the text in one pass, whatever its member order and whitespace, in WebAssembly for text
 * read from bytes where it can (fast-path/wasm-canonicalizer.ts) and else in JavaScript
 * (fast-path/event-canonicalizer.ts), and gives the steps each proven event as a light view
 * instead of parsing it whole (fast-path/event-views.ts); `canonical-js` is the same with the
 * pass always in JavaScript; `fast` lets the lexical fast path hash what it can prove
 * canonical as stored, and parses everything; `plain` parses everything and serializes every
 * value. All give the same result on every input; the seam exists so that tests can run the
 * corpus every way.
 */
export type JsonReading = 'fast' | 'canonical' | 'canonical-js' | 'plain';

/** What a reading of the text knows of its events before they are parsed. */
export interface TextKnown extends KnownEventTexts, KnownMemberTexts {
  readonly count: number;
  provenSpans(): ProvenSpans;
}

function knownOf(text: string, input: string | Uint8Array, reading: JsonReading): TextKnown | null {
  if (reading === 'fast') return scanCanonicalEvents(text);
  if (reading === 'canonical' || reading === 'canonical-js')
    return canonicalizeEvents(
      text,
      typeof input === 'string' ? undefined : input,
      reading === 'canonical',
    );
  return null;
}

/** verifyJson with the reading chosen (internal seam; not part of the public surface). */
export function verifyJsonWith(
  input: string | Uint8Array,
  options: VerifyOptions,
  reading: JsonReading,
): VerifyResult {
  assertTrustPolicy(options);
  // readJsonStrict, keeping the text: the reading's pass hashes the events it proves straight
  // from it (for `fast`, those stored in canonical form, spec §7), the strict reader's
  // pre-scan need not walk them again, and for `canonical` they are read as views.
  const decoded = decodeJsonInput(input);
  if (!decoded.ok)
    return failure({ check: 'schema', code: decoded.error.code, message: decoded.error.message });
  const known = knownOf(decoded.text, input, reading);
  if (known instanceof CanonicalizedEvents) {
    const around = aroundViews(decoded.text, known);
    if (around !== undefined) {
      const byEvent = verifyEventByEvent(decoded.text, known, around, options);
      if (byEvent !== undefined) return byEvent;
      const read = viewsOf(decoded.text, known, around);
      if (read !== undefined) {
        known.useCassetteMembers(read.cassetteMembers);
        return verifyWithPolicy(read.record, options, known);
      }
    }
  }
  const parsed = parseJsonStrictSpans(decoded.text, undefined, known?.provenSpans());
  if (!parsed.ok)
    return failure({ check: 'schema', code: parsed.error.code, message: parsed.error.message });
  return verifyWithPolicy(parsed.value, options, known);
}

/**
 * The record read around its proven events (readRecordAroundViews), or undefined when it does
 * not read so (then the text is read whole).
 */
function aroundViews(text: string, known: CanonicalizedEvents): RecordAroundViews | undefined {
  try {
    return readRecordAroundViews(text, known.scan);
  } catch {
    return undefined;
  }
}

/**
 * The canonical reading's usual way: each event of the record read around its proven events
 * (a view, or parsed where it is not proven) handed to the steps in array order and let go at
 * once, so that no view outlives its turn (holding 100k views until every step had read them
 * made the young generation's collections copy them all, once or twice). The result is the
 * pipeline's on the same record (steps/event-steps.ts). Undefined when its oracle entries are
 * further out of seq order than the cassette's reorder window (steps/in-order-cassette.ts; it
 * must then sort them all) or on any unexpected error: the caller then reads the record with
 * all its views in its events array. `around` is left as it was given.
 */
function verifyEventByEvent(
  text: string,
  known: CanonicalizedEvents,
  { record, events, asView }: RecordAroundViews,
  options: VerifyOptions,
): VerifyResult | undefined {
  try {
    const reader = new ViewReader(text, known.scan, events.length);
    known.useCassetteMembers(reader.cassetteMembers);
    const cassette = new InOrderCassette();
    const steps = new EventSteps(cassette);
    for (let k = 0; k < events.length; k++) {
      const event = asView[k] === 1 ? reader.view(k) : events[k];
      const hash = known.eventHash(k, steps.head);
      steps.add(event, k, hash === undefined ? known.eventText(k) : undefined, hash, known);
      if (cassette.unordered) return undefined;
    }
    // The steps saw the events; of the record's events array they only test its presence.
    return eventStepsResult(steps, { ...partsOf(record), events: [] }, true, options);
  } catch {
    return undefined;
  }
}

/** The record with its proven events as views, or undefined (then the text is read whole). */
function viewsOf(
  text: string,
  known: CanonicalizedEvents,
  around: RecordAroundViews,
): RecordWithViews | undefined {
  try {
    return withViews(text, known.scan, around);
  } catch {
    return undefined;
  }
}

/** The pipeline behind a last-resort catch: a defect or a hostile object never yields valid. */
export function verifyWithPolicy(
  record: unknown,
  options: VerifyOptions,
  known: TextKnown | null = null,
): VerifyResult {
  try {
    return runPipeline(record, options, known);
  } catch (err) {
    return failure({
      check: 'schema',
      code: 'VERIFY_UNREADABLE',
      message: `expected a readable record, got an error while reading it: ${(err as Error)?.message ?? String(err)}`,
    });
  }
}

function runPipeline(
  record: unknown,
  options: VerifyOptions,
  textKnown: TextKnown | null,
): VerifyResult {
  const parts = partsOf(record);
  // The events' canonical texts where the JSON text already holds them, by position, so only
  // when the text's events array is the parsed one; the chain and the cassette serialize the
  // rest (docs/spec.md §3, §4.3).
  const known = textKnown !== null && textKnown.count === parts.events?.length ? textKnown : null;
  // 1. schema — shaped like a record: $schema, manifest, run, events and event base members.
  const schema = checkSchema(parts);
  // 2. consistent — the unsigned summary agrees with the signed events.
  const consistent = checkConsistent(parts);
  // 3. chain — every event's _hash is the recomputed chain hash.
  const chain = checkChain(parts, known);
  // 4. digest — the terminal chain hash is manifest.content_digest.
  const digest = checkDigest(parts, chain.contentDigest);
  // 5. cassette — the recomputed oracle-stream digest is manifest.replay.cassette_digest.
  const cassette = checkCassette(parts, known);
  // 6. signature — who signed the two digests, judged against the trust policy.
  const signature = checkRecordSignature(parts, options);

  return assembleResult({ schema, consistent, chain, digest, cassette, signature });
}

/**
 * The result for the record `parts` whose events went through `steps` one at a time
 * (verifyJson's event-by-event reading, verifyStream): `streamed` as EventSteps.results takes it.
 */
export function eventStepsResult(
  steps: EventSteps,
  parts: RecordParts,
  streamed: boolean,
  options: VerifyOptions,
): VerifyResult {
  const signature = checkRecordSignature(parts, options);
  return assembleResult({ ...steps.results(parts, streamed), signature });
}

/** The six step results, in pipeline order. */
export interface StepResults {
  readonly schema: StepResult;
  readonly consistent: StepResult;
  readonly chain: StepResult;
  readonly digest: StepResult;
  readonly cassette: CassetteStepResult;
  readonly signature: SignatureStepResult;
}

/** The result object from the six steps' results (docs/spec.md §5.7). */
export function assembleResult(steps: StepResults): VerifyResult {
  const { schema, consistent, chain, digest, cassette, signature } = steps;
  const integrity = schema.ok && consistent.ok && chain.ok && digest.ok && cassette.ok;
  const verdict = verdictOf(integrity, signature.outcome);
  const result: VerifyResult = {
    verdict,
    integrity,
    valid: verdict === 'valid',
    checks: {
      schema: schema.ok,
      consistent: consistent.ok,
      chain: chain.ok,
      digest: digest.ok,
      cassette: cassette.ok,
      signature: signature.outcome,
    },
    errors: [
      ...schema.errors,
      ...consistent.errors,
      ...chain.errors,
      ...digest.errors,
      ...cassette.errors,
      ...signature.errors,
    ],
    notes: [...cassette.notes, ...signature.notes],
  };
  return signature.signer === undefined ? result : { ...result, signer: signature.signer };
}

/** The result for input that could not be read as a record at all. */
export function failure(error: VerifyError): VerifyResult {
  return {
    verdict: 'invalid',
    integrity: false,
    valid: false,
    checks: {
      schema: false,
      consistent: false,
      chain: false,
      digest: false,
      cassette: false,
      signature: 'unsigned',
    },
    errors: [error],
    notes: [],
  };
}
