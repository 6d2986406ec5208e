// What a replayed run's calls are answered from. Each model, tool and
// environment call of the agent asks the source before it would run; the source serves the
// recorded call, sends it live, or fails loudly, by mode:
//   strict        the call's replay key must match a recorded, unserved call (first-in, first-out);
//   ordered       the n-th call of a kind and name gets the n-th recorded one, whatever its key,
//                 so a changed pipeline completes and `runback diff` shows what changed;
//   live-on-miss  a key match is served, anything else runs live (a fork of the run).
import { RunbackError } from '../core/errors.js';
import { diffJson, preview, previewPair, type JsonChange } from '@runback/diff';
import type { RecordedCall, RecordedCassette } from './cassette.js';
import { CompletionOrder, claimDelivery } from './completion-order.js';
import type { ReplayTools } from './replay-tools.js';

/** How a replay answers calls. */
export type ReplayMode = 'strict' | 'ordered' | 'live-on-miss';

/** The replay modes, for argument checking. */
export const REPLAY_MODES: readonly ReplayMode[] = ['strict', 'ordered', 'live-on-miss'];

/** A call the agent is making now, keyed as its event will be (redacted, projected). */
export interface LiveCall {
  /** `llm`, `tool`, or the env kind. */
  readonly kind: string;
  /** Model id, tool name, or the env kind. */
  readonly name: string;
  readonly key: string;
  /** What the call sends, as it will be stored: an llm `request`, a tool `input`, a fetch `input`. */
  readonly input: unknown;
}

/** A call no recorded call could answer. */
export interface ReplayMiss {
  readonly kind: string;
  readonly name: string;
  readonly key: string;
  readonly mode: ReplayMode;
  /** The recorded call it most likely stands for, if any. */
  readonly nearest: { readonly seq: number; readonly index: number; readonly key: string } | null;
  /** How the live call's input differs from the nearest recorded one's (JSON Pointers). */
  readonly inputDiff: readonly JsonChange[];
  /** Whether the call was sent live instead (live-on-miss). */
  readonly wentLive: boolean;
}

/** Thrown by a call a strict or ordered replay cannot answer. */
export class ReplayMissError extends RunbackError {
  readonly miss: ReplayMiss;

  constructor(miss: ReplayMiss) {
    super('REPLAY_MISS', missMessage(miss));
    this.name = 'ReplayMissError';
    this.miss = miss;
  }
}

/** Whether `err` is a ReplayMissError of this or another copy of the SDK. */
export function isReplayMiss(err: unknown): err is ReplayMissError {
  return (
    err instanceof Error &&
    (err as { code?: unknown }).code === 'REPLAY_MISS' &&
    typeof (err as { miss?: unknown }).miss === 'object'
  );
}

/** What the source answered. */
export type Served = { readonly call: RecordedCall } | { readonly live: true };

/** Answers a replayed run's calls from a recorded cassette. */
export class ReplaySource {
  readonly mode: ReplayMode;
  readonly cassette: RecordedCassette;
  /** The recorded completion order, which gated deliveries of served calls follow. */
  readonly order: CompletionOrder;
  /** Whether `tool()` bodies run (`live`) or their recorded outputs answer (session/replay-tools.ts). */
  readonly tools: ReplayTools;
  readonly #misses: ReplayMiss[] = [];

  constructor(cassette: RecordedCassette, mode: ReplayMode, tools: ReplayTools = 'recorded') {
    this.cassette = cassette;
    this.mode = mode;
    this.tools = tools;
    this.order = new CompletionOrder(cassette.calls);
  }

  /**
   * Serves this very recorded call, one the record holds inside the body of a tool whose
   * recorded output answered: the body does not run, so the call is given back as recorded.
   * False when it was served already.
   */
  serveRecorded(call: RecordedCall): boolean {
    if (!this.cassette.takeCall(call)) return false;
    this.order.served(call, false);
    return true;
  }

  /** Calls that could not be served (the one that stopped a strict replay, or those sent live). */
  get misses(): readonly ReplayMiss[] {
    return this.#misses;
  }

  /** Serves `live` from the record, or says to send it live; throws ReplayMissError otherwise. */
  serve(live: LiveCall): Served {
    const call =
      this.mode === 'ordered'
        ? this.cassette.takeByPosition(live.kind, live.name)
        : this.cassette.takeByKey(live.kind, live.key);
    if (call !== undefined) {
      this.order.served(call, claimDelivery(call));
      return { call };
    }
    const nearest = this.cassette.nearest(live.kind, live.name);
    const miss: ReplayMiss = {
      kind: live.kind,
      name: live.name,
      key: live.key,
      mode: this.mode,
      nearest:
        nearest === undefined ? null : { seq: nearest.seq, index: nearest.index, key: nearest.key },
      inputDiff: nearest === undefined ? [] : diffJson(recordedInput(nearest), live.input),
      wentLive: this.mode === 'live-on-miss',
    };
    this.#misses.push(miss);
    if (miss.wentLive) return { live: true };
    throw new ReplayMissError(miss);
  }
}

/** What a recorded call sent, in the form a LiveCall's input takes. */
export function recordedInput(call: RecordedCall): unknown {
  const event = call.event;
  if (event['type'] === 'llm') return event['request'];
  if (event['type'] === 'tool') return event['input'];
  return event['input'] ?? event['key'];
}

function missMessage(miss: ReplayMiss): string {
  const what = `${miss.kind} call${miss.kind === miss.name ? '' : ` "${miss.name}"`}`;
  if (miss.mode === 'ordered') {
    return `ordered replay: the agent made one more ${what} than the record holds; expected no further ${what}, got one`;
  }
  if (miss.nearest === null) {
    return `strict replay: no recorded ${what} matches; the record has no ${miss.kind} call left to compare it with`;
  }
  const shown = miss.inputDiff.slice(0, 3).map((c) => {
    const path = c.path === '' ? '(whole input)' : c.path;
    if (c.op === 'add') return `${path} added ${preview(c.after)}`;
    if (c.op === 'remove') return `${path} removed (was ${preview(c.before)})`;
    const [before, after] = previewPair(c.before, c.after);
    return `${path}: expected ${before}, got ${after}`;
  });
  const more = miss.inputDiff.length > 3 ? `; and ${miss.inputDiff.length - 3} more` : '';
  return `strict replay: no recorded ${what} matches this request; nearest recorded call is seq ${miss.nearest.seq}, which differs at ${shown.join('; ') || '(no visible difference: check key_projection and redaction)'}${more}`;
}
