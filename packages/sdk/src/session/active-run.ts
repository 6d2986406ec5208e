// The recording state of one run: seq allocation, redaction, incremental sealing, and where
// sealed events go (memory, or the journal). Every event of a run passes through emit().
import type { CaptureSettings } from './capture-settings.js';
import type { Redactor } from '../redact/index.js';
import type { ReplaySource } from './replay-source.js';
import { IncrementalSealer, type SealDigests } from './sealer.js';
import { sortedMembers } from './sorted.js';
import { isObject } from '../core/values.js';

/** Where sealed event texts go. */
export interface EventSink {
  /** Stores one sealed event (its JSON text, no newline). Must not return before it is kept. */
  write(text: string): void;
  /** A promise while the sink wants the run to wait before its next call starts (back-pressure). */
  ready?(): Promise<void> | undefined;
}

/** How an ActiveRun is set up. */
export interface ActiveRunInit {
  readonly runId: string;
  /** The span id of the run itself: the parent of top-level calls. */
  readonly rootSpanId: string;
  readonly sink: EventSink;
  readonly redactor: Redactor;
  readonly capture: CaptureSettings;
  /** The first seq to allocate (0 for a new run). */
  readonly firstSeq?: number;
  /** In a replay: what the run's calls are answered from. */
  readonly replay?: ReplaySource | undefined;
  /** Continue a chain begun by another writer: its head and event count. */
  readonly chainHead?: string;
  readonly chainCount?: number;
}

/** A run being recorded. Internal: users hold a {@link Run}. */
export class ActiveRun {
  readonly runId: string;
  readonly rootSpanId: string;
  readonly capture: CaptureSettings;
  /** In a replay, the recorded calls that answer this run's calls; undefined when recording live. */
  readonly replay: ReplaySource | undefined;
  readonly #sink: EventSink;
  readonly #redactor: Redactor;
  readonly #sealer: IncrementalSealer;
  readonly #redactions: string[] = [];
  #nextSeq: number;
  #open = 0;
  #ended = false;

  constructor(init: ActiveRunInit) {
    this.runId = init.runId;
    this.rootSpanId = init.rootSpanId;
    this.capture = init.capture;
    this.replay = init.replay;
    this.#sink = init.sink;
    this.#redactor = init.redactor;
    this.#nextSeq = init.firstSeq ?? 0;
    this.#sealer = new IncrementalSealer({
      firstSeq: this.#nextSeq,
      ...(init.chainHead === undefined ? {} : { head: init.chainHead }),
      ...(init.chainCount === undefined ? {} : { count: init.chainCount }),
    });
  }

  /**
   * A promise while the run's sink is full: calls wait on it before they start, so a slow sink
   * slows the agent instead of losing events.
   */
  writable(): Promise<void> | undefined {
    return this.#sink.ready?.();
  }

  /** Whether the run has ended: nothing more is recorded in it. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Calls begun and not yet recorded. */
  get openCalls(): number {
    return this.#open;
  }

  /** Events sealed so far (in a continued chain, those of the earlier writer too): the record index of the next one. */
  get eventCount(): number {
    return this.#sealer.eventCount;
  }

  /** Record-level JSON Pointers of every redacted value so far. */
  get redactions(): readonly string[] {
    return this.#redactions;
  }

  /** The redaction policy, for integrations that must key a live request as it will be stored. */
  get redactor(): Redactor {
    return this.#redactor;
  }

  /** Allocates the seq of a call that starts now (seq follows start order: docs/spec.md §7). */
  beginCall(): number {
    this.#open++;
    return this.#nextSeq++;
  }

  /** Allocates the seq of an instantaneous event (no span to wait for). */
  nextSeq(): number {
    return this.#nextSeq++;
  }

  /** Gives up a call's seq without an event (it could not be recorded). */
  abandonCall(seq: number): void {
    this.#open--;
    if (!this.#ended) this.#sealer.skip(seq);
  }

  /**
   * Redacts, seals and stores one event; `call` says it ends a call begun with beginCall.
   * After the run has ended, events are dropped (a call that outlived its run is not in it).
   */
  emit(event: { readonly seq: number } & Record<string, unknown>, call = false): void {
    if (call) this.#open--;
    if (this.#ended) return;
    const index = this.#sealer.eventCount;
    const { value, sites } = this.#redactor.redact(event);
    let stored: { readonly seq: number } & Record<string, unknown> = value;
    if (sites.length > 0) {
      // The event lists its own redaction sites, so a journal alone can rebuild the run's list.
      const metadata = isObject(value['metadata']) ? value['metadata'] : {};
      stored = { ...value, metadata: sortedMembers({ ...metadata, redacted: sites }) };
      for (const site of sites) this.#redactions.push(`/events/${index}${site}`);
    }
    this.#sink.write(this.#sealer.add(stored));
  }

  /** Ends recording and returns the digests; later emits are dropped. */
  finish(): SealDigests {
    this.#ended = true;
    return this.#sealer.finish();
  }

  /** Marks the run ended without digests (a preloaded child process exiting). */
  close(): void {
    this.#ended = true;
  }
}
