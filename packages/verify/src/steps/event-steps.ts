// The per-event work of the schema, consistent, chain and cassette steps, for events handed
// over one at a time and let go at once (a streamed record, or the views verifyJson reads from
// a whole text), and the steps' results from what was gathered: the same results as the steps
// running over the record with all its events (docs/spec.md §5.1-§5.5).
import type { CassetteDigestsByReading, KnownMemberTexts } from '@runback/replay-digest';
import { checkCassetteWith, type CassetteStepResult } from './cassette.js';
import { ChainAccumulator } from './chain.js';
import { checkConsistentFacts, ConsistentFacts } from './consistent.js';
import { StepErrors, type RecordParts, type StepResult } from './context.js';
import { checkDigest } from './digest.js';
import { checkEventSchema, checkSchema } from './schema.js';

/**
 * The cassette digests gathered one event at a time: in seq order within a window
 * (in-order-cassette.ts, for a record read whole) or within a reorder budget (a stream's).
 */
export interface CassetteAccumulator {
  /** Adds the event at `index` (events come in array order); `known` may supply member texts. */
  add(event: unknown, index: number, known?: KnownMemberTexts): void;
  /** The digests under both readings; throws what cassetteDigestsByReading would throw. */
  digests(): CassetteDigestsByReading;
}

/** The results of the steps that read events (the signature step reads none). */
export interface EventStepResults {
  readonly schema: StepResult;
  readonly consistent: StepResult;
  readonly chain: StepResult;
  readonly digest: StepResult;
  readonly cassette: CassetteStepResult;
}

export class EventSteps {
  readonly #schema = new StepErrors('schema');
  readonly #facts = new ConsistentFacts();
  readonly #chain = new ChainAccumulator();
  readonly #cassette: CassetteAccumulator;

  constructor(cassette: CassetteAccumulator) {
    this.#cassette = cassette;
  }

  /** The chain's head after the events added so far. */
  get head(): string {
    return this.#chain.head;
  }

  /**
   * Adds the event at `index` (in array order, from 0): `text` is its canonical form without
   * _hash, or `hash` its chain hash onto the current head, when known (else it is serialized);
   * `known` may supply the canonical texts of its members for the cassette.
   */
  add(
    event: unknown,
    index: number,
    text: string | undefined,
    hash: string | undefined,
    known: KnownMemberTexts | undefined,
  ): void {
    checkEventSchema(event, index, this.#schema);
    this.#facts.add(event, index);
    this.#chain.add(event, index, text, hash);
    this.#cassette.add(event, index, known);
  }

  /**
   * The steps' results for the record `parts` (whose events array, when it has one, stands
   * for the events added: it is only tested for presence). `streamed`: whether the events
   * added were that array's (else the record's events member was not an array).
   */
  results(parts: RecordParts, streamed: boolean): EventStepResults {
    const top = checkSchema(parts);
    const schema = streamed
      ? {
          ok: top.ok && this.#schema.errors.length === 0,
          errors: [...top.errors, ...this.#schema.errors],
        }
      : top;
    const consistent = checkConsistentFacts(parts, this.#facts);
    const chain = this.#chain.result(parts.events !== null);
    const digest = checkDigest(parts, chain.contentDigest);
    const cassette = checkCassetteWith(parts, () => this.#cassette.digests());
    return { schema, consistent, chain, digest, cassette };
  }
}
