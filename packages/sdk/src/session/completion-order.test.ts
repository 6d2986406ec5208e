import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from './cassette.js';
import {
  CompletionOrder,
  STALL_SLACK_MS,
  claimDelivery,
  inCompletionOrder,
} from './completion-order.js';

const T0 = '2026-01-01T00:00:00.000Z';

/** A recorded call ending at array position `index`. */
function call(index: number, kind = 'fetch', seq = index): RecordedCall {
  return {
    index,
    seq,
    kind,
    name: kind,
    key: `${kind}-${index}`,
    output: null,
    event: { ts_start: T0, ts_end: T0 },
  };
}

/** Serves `c` as a gated delivery and resolves, in order, into `delivered`. */
function deliver(order: CompletionOrder, c: RecordedCall, delivered: number[]): Promise<void> {
  return inCompletionOrder(order, async () => {
    order.served(c, claimDelivery(c));
    return c.index;
  }).then((index) => void delivered.push(index));
}

describe('CompletionOrder', () => {
  it('delivers a call asked first after the one recorded as ending first', async () => {
    const slow = call(1, 'fetch', 0); // asked first, ended second
    const fast = call(0, 'fetch', 1);
    const order = new CompletionOrder([slow, fast]);
    const delivered: number[] = [];
    const both = [deliver(order, slow, delivered), deliver(order, fast, delivered)];
    await Promise.all(both);
    expect(delivered).toEqual([0, 1]);
    expect(order.outOfOrder).toBe(0);
  });

  it('waits for the instant reads recorded before it, served by other code', async () => {
    const fetched = call(2, 'fetch', 0);
    const uuid = call(1, 'uuid', 2);
    const clock = call(0, 'now', 1);
    const order = new CompletionOrder([fetched, uuid, clock]);
    const delivered: number[] = [];
    const pending = deliver(order, fetched, delivered);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(delivered).toEqual([]);
    order.served(clock, claimDelivery(clock)); // outside any delivery: ends at once
    order.served(uuid, claimDelivery(uuid));
    await pending;
    expect(delivered).toEqual([2]);
  });

  it('a call not delivered through a gate ends when it is served', async () => {
    const first = call(0, 'llm');
    const second = call(1, 'fetch');
    const order = new CompletionOrder([first, second]);
    order.served(first, claimDelivery(first)); // an in-code llm span: no gate
    const delivered: number[] = [];
    await deliver(order, second, delivered);
    expect(delivered).toEqual([1]);
  });

  it('rethrows a served failure only when its turn comes', async () => {
    const failing = call(1, 'fetch', 0);
    const other = call(0, 'fetch', 1);
    const order = new CompletionOrder([failing, other]);
    const seen: string[] = [];
    const a = inCompletionOrder(order, async () => {
      order.served(failing, claimDelivery(failing));
      throw new TypeError('fetch failed');
    }).catch((err: unknown) => void seen.push((err as Error).message));
    const b = deliver(order, other, []).then(() => void seen.push('other'));
    await Promise.all([a, b]);
    expect(seen).toEqual(['other', 'fetch failed']);
  });

  it('goes ahead of a recorded call the replay never makes, after the live time plus slack', async () => {
    const never = call(0, 'fetch');
    const waiting = call(1, 'fetch');
    const order = new CompletionOrder([never, waiting]);
    const started = performance.now();
    await deliver(order, waiting, []);
    expect(performance.now() - started).toBeGreaterThanOrEqual(STALL_SLACK_MS - 5);
    expect(order.outOfOrder).toBe(1);
    // The skipped call still answers, at once, if it comes after all.
    await deliver(order, never, []);
  });

  it('any recorded completion order is the delivery order, whatever order the calls are asked in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 7 })
          .chain((n) =>
            fc.tuple(
              fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
              fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
            ),
          ),
        async ([completion, asked]) => {
          // completion[i] = the seq of the call that ended i-th
          const calls = completion.map((seq, index) => call(index, 'fetch', seq));
          const order = new CompletionOrder(calls);
          const delivered: number[] = [];
          const bySeq = new Map(calls.map((c) => [c.seq, c]));
          await Promise.all(
            asked.map((seq) => deliver(order, bySeq.get(seq) as RecordedCall, delivered)),
          );
          expect(delivered).toEqual(calls.map((c) => c.index));
          expect(order.outOfOrder).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});
