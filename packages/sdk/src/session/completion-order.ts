// Completion order in a replay (docs/spec.md §7: a record's `events` array is the order in which
// calls *ended*, `seq` the order in which they started). Served calls answer at once, so without
// help two overlapping calls would finish in the order they were asked, not the order they
// finished live, and whatever each one's continuation reads next (the clock, a UUID, a random
// number) would go to the other. A gated delivery therefore waits until every call recorded
// as ending before it has ended in the replay too: instant reads when they are served, gated
// calls when their own turn came, others (not gated) when served.
//
// A recorded call that the replay never makes (the program changed, or a timer fired at
// another point) must not hang the program: a delivery waits no longer than the live run took
// from that delivery's start to the end of the call it waits for, plus STALL_SLACK_MS, counted
// from the last progress (a call served or delivered). Then it goes ahead, and the report
// counts it (`outOfOrder`).
import { AsyncLocalStorage } from 'node:async_hooks';
import { OriginalDate, monotonicMs } from '../core/internal-globals.js';
import type { RecordedCall } from './cassette.js';

/** Env kinds that take no time: they end when they are served. */
const INSTANT_KINDS = new Set(['now', 'date', 'random', 'uuid', 'clock']);

/** How long past the live timing a delivery waits for a call the replay has not made. */
export const STALL_SLACK_MS = 1000;
/** The longest a delivery ever waits without progress. */
const MAX_WAIT_MS = 30_000;

interface Waiting {
  readonly position: number;
  readonly budgetMs: number;
  readonly release: () => void;
}

/** The recorded completion order of a record's calls, and the deliveries waiting on it. */
export class CompletionOrder {
  /** Recorded calls in completion (array) order. */
  readonly #calls: readonly RecordedCall[];
  /** Their event positions (ascending): a call's place in the order, found by its `index`. */
  readonly #indexes: Int32Array;
  readonly #done: Uint8Array;
  /** Every call before this position has ended in the replay. */
  #frontier = 0;
  readonly #waiting: Waiting[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #releasing: ReturnType<typeof setImmediate> | undefined;
  #lastProgress = 0;
  #outOfOrder = 0;
  readonly #clock: () => number;

  constructor(calls: readonly RecordedCall[], clock: () => number = monotonicMs) {
    this.#calls = [...calls].sort((a, b) => a.index - b.index);
    this.#indexes = Int32Array.from(this.#calls, (call) => call.index);
    this.#done = new Uint8Array(this.#calls.length);
    this.#clock = clock;
  }

  /** Deliveries that went ahead of a recorded call the replay had not made in time. */
  get outOfOrder(): number {
    return this.#outOfOrder;
  }

  /**
   * A call was served. An instant read, or a call whose delivery is not gated, has ended; a
   * gated one ends when its turn comes.
   */
  served(call: RecordedCall, gated: boolean): void {
    this.#progress();
    if (!gated || INSTANT_KINDS.has(call.kind)) this.#end(call);
  }

  /**
   * Resolves when every call recorded as ending before `call` has ended in the replay (or the
   * wait gave up on one that never came); `call` has then ended.
   */
  turn(call: RecordedCall): Promise<void> {
    const position = this.#positionOf(call);
    if (position === -1) return Promise.resolve();
    if (this.#frontier >= position) {
      this.#end(call);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#waiting.push({
        position,
        budgetMs: this.#budget(call, this.#calls[this.#frontier]),
        release: () => {
          this.#end(call);
          resolve();
        },
      });
      this.#watch();
    });
  }

  #end(call: RecordedCall): void {
    const position = this.#positionOf(call);
    if (position === -1 || this.#done[position] === 1) return;
    this.#done[position] = 1;
    this.#progress();
    this.#advance();
  }

  /** Where `call` (one of the record's calls: one per event position) ends, or -1. */
  #positionOf(call: RecordedCall): number {
    const index = call.index;
    let lo = 0;
    let hi = this.#indexes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.#indexes[mid] as number;
      if (at === index) return mid;
      if (at < index) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  #advance(): void {
    while (this.#frontier < this.#done.length && this.#done[this.#frontier] === 1) {
      this.#frontier++;
    }
    if (this.#waiting.length === 0) return this.#unwatch();
    // Whoever is next in line goes after a macrotask: the continuation of the call that just
    // ended (its microtasks: parsing the answer, the reads that follow) runs first, as it did
    // live. Releasing it ends it, which advances the frontier again.
    if (this.#releasing === undefined) {
      this.#releasing = setImmediate(() => {
        this.#releasing = undefined;
        const next = this.#waiting.findIndex((w) => w.position <= this.#frontier);
        if (next === -1) return;
        const [waiting] = this.#waiting.splice(next, 1);
        waiting?.release();
      });
    }
  }

  #progress(): void {
    this.#lastProgress = this.#clock();
  }

  /** The live run's time from `call`'s start to `blocker`'s end, plus the slack. */
  #budget(call: RecordedCall, blocker: RecordedCall | undefined): number {
    const start = OriginalDate.parse(String(call.event['ts_start']));
    const end = OriginalDate.parse(String(blocker?.event['ts_end'] ?? blocker?.event['ts_start']));
    const live = Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : 0;
    return Math.min(MAX_WAIT_MS, live + STALL_SLACK_MS);
  }

  #watch(): void {
    if (this.#timer !== undefined) return;
    // Referenced: a delivery still waiting keeps the program alive, as the live call did.
    this.#timer = setInterval(() => this.#check(), 20);
  }

  #unwatch(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    const first = this.#waiting.reduce<Waiting | undefined>(
      (min, w) => (min === undefined || w.position < min.position ? w : min),
      undefined,
    );
    if (first === undefined) return this.#unwatch();
    if (this.#clock() - this.#lastProgress < first.budgetMs) return;
    // Give up on the calls before it that the replay has not made: it goes next.
    this.#outOfOrder++;
    this.#waiting.splice(this.#waiting.indexOf(first), 1);
    first.release();
    if (this.#frontier < first.position) {
      // Skipped calls still end normally if they come later; only the line moves on.
      this.#frontier = first.position + 1;
      this.#advance();
    }
  }
}

/** Where a gated delivery learns which recorded call answered it. */
interface DeliverySlot {
  call: RecordedCall | undefined;
}

const deliveries = new AsyncLocalStorage<DeliverySlot>();

/**
 * Whether a call being served now is delivered through {@link inCompletionOrder} (and is the
 * first call served in it): then it ends when its turn comes, not when it is served.
 */
export function claimDelivery(call: RecordedCall): boolean {
  const slot = deliveries.getStore();
  if (slot === undefined || slot.call !== undefined || INSTANT_KINDS.has(call.kind)) return false;
  slot.call = call;
  return true;
}

/**
 * Runs `send` (a fetch whose answer a replay may serve) and hands back its result, or rethrows
 * its failure, only when the recorded call that answered it has its turn in `order`.
 */
export async function inCompletionOrder<T>(
  order: CompletionOrder,
  send: () => Promise<T>,
): Promise<T> {
  const slot: DeliverySlot = { call: undefined };
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await deliveries.run(slot, send) };
  } catch (error) {
    outcome = { error };
  }
  if (slot.call !== undefined) await order.turn(slot.call);
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
