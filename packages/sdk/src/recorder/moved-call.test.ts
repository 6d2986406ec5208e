// A call the replay made at another point of the stream than the record (a read whose place an
// interleaving changed) is reported as moved, with both places, never as an extra or missing call.
import { describe, expect, it } from 'vitest';
import { firstDivergence } from './compare.js';

const env = (seq: number, kind: string, output: unknown) => ({
  type: 'env',
  seq,
  kind,
  key: kind,
  output,
});
const fetched = (seq: number, url: string) => ({
  type: 'env',
  seq,
  kind: 'fetch',
  key: `k-${url}`,
  input: { method: 'GET', url },
  output: { status: 200 },
});

describe('a moved call', () => {
  it('a UUID read the record holds a few calls later is "moved", not "extra"', () => {
    const recorded = [
      fetched(0, '/a'),
      env(1, 'now', 1),
      env(2, 'now', 2),
      env(3, 'uuid', 'u-1'),
      env(4, 'uuid', 'u-2'),
    ];
    const replayed = [
      fetched(0, '/a'),
      env(1, 'uuid', 'u-1'),
      env(2, 'now', 1),
      env(3, 'now', 2),
      env(4, 'uuid', 'u-2'),
    ];
    const d = firstDivergence(recorded, replayed);
    expect(d).toMatchObject({
      reason: 'moved',
      kind: 'uuid',
      call: 2, // where the replay made it
      nearest: { call: 4, seq: 3 }, // where the record holds it
      recordedSeq: 3,
      replayedSeq: 1,
    });
  });

  it('a recorded call the replay made later is "moved", at the place the replay made it', () => {
    const recorded = [env(0, 'random', 0.5), fetched(1, '/a'), fetched(2, '/b')];
    const replayed = [fetched(0, '/a'), fetched(1, '/b'), env(2, 'random', 0.5)];
    expect(firstDivergence(recorded, replayed)).toMatchObject({
      reason: 'moved',
      kind: 'random',
      call: 3,
      nearest: { call: 1, seq: 0 },
    });
  });

  it('a read of the same kind with another value is not a move', () => {
    const recorded = [env(0, 'uuid', 'u-1'), env(1, 'now', 5)];
    const replayed = [env(0, 'uuid', 'u-9'), env(1, 'now', 5)];
    expect(firstDivergence(recorded, replayed)?.reason).toBe('output');
  });

  it('a call the record does not hold anywhere is still extra', () => {
    const recorded = [fetched(0, '/a'), fetched(1, '/b')];
    const replayed = [fetched(0, '/a'), fetched(1, '/x'), fetched(2, '/b')];
    expect(firstDivergence(recorded, replayed)?.reason).toBe('extra');
  });
});
