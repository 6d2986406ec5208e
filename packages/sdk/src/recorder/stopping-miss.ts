// The replay miss a replayed run holds, found from the replayed record alone (so the CLI, which
// replays in a child process, reports it as an in-code replay does). A strict or ordered replay
// that cannot answer a call throws ReplayMissError there; the model, tool or fetch event of that
// call is recorded failed with it. The recorded call it was compared with is found again by
// serving the replayed run's earlier calls from the record, in seq order (the order they were
// served: docs/spec.md §7), exactly as the replay did.
import { diffJson, type JsonChange } from '@runback/diff';
import { RecordedCassette, type RecordedCall } from '../session/cassette.js';
import { recordedInput, type ReplayMode } from '../session/replay-source.js';
import { isObject as isRecord } from '../core/values.js';

/** A call the replay could not answer from the record. */
export interface StoppingMiss {
  /** 1-based position of the missed call in the replayed run's stream of calls. */
  readonly call: number;
  readonly kind: string;
  readonly name: string;
  readonly replayedSeq: number;
  /** The recorded call it most likely stands for: its 1-based position and seq; null when none. */
  readonly nearest: { readonly call: number; readonly seq: number } | null;
  /** The missed request against the nearest recorded one (JSON Pointers, recorded → replayed). */
  readonly input: readonly JsonChange[];
  /** What the agent was told (the ReplayMissError's message). */
  readonly message: string;
}

const MISS_NAME = 'ReplayMissError';

/** The first call of `replayed` that failed with a replay miss, or null. */
export function stoppingMiss(
  recorded: readonly unknown[],
  replayed: readonly unknown[],
): StoppingMiss | null {
  const calls = new RecordedCassette(replayed).calls;
  const at = calls.findIndex((c) => missErrorOf(c.event) !== undefined);
  if (at === -1) return null;
  const missed = calls[at] as RecordedCall;
  const cassette = new RecordedCassette(recorded);
  const mode = replayModeOf(replayed);
  for (const served of calls.slice(0, at)) {
    if (mode === 'ordered') cassette.takeByPosition(served.kind, served.name);
    else cassette.takeByKey(served.kind, served.key);
  }
  // Ordered mode misses only when the record has no call of this kind and name left.
  const nearest = mode === 'ordered' ? undefined : cassette.nearest(missed.kind, missed.name);
  return {
    call: at + 1,
    kind: missed.kind,
    name: missed.name,
    replayedSeq: missed.seq,
    nearest:
      nearest === undefined
        ? null
        : { call: cassette.calls.indexOf(nearest) + 1, seq: nearest.seq },
    input: nearest === undefined ? [] : diffJson(recordedInput(nearest), recordedInput(missed)),
    message: missErrorOf(missed.event)?.message ?? '',
  };
}

/** The run's own error when it is a replay miss no call event holds (a clock or random read). */
export function runMissMessage(replayed: readonly unknown[]): string | null {
  const end = replayed.find(
    (e): e is Record<string, unknown> => isRecord(e) && e['type'] === 'run' && e['phase'] === 'end',
  );
  const error = end?.['error'];
  return isRecord(error) && error['name'] === MISS_NAME && typeof error['message'] === 'string'
    ? error['message']
    : null;
}

function missErrorOf(event: Readonly<Record<string, unknown>>): { message: string } | undefined {
  // A model or tool call stores its error as `error`; a fetch as its output's `error`.
  const output = event['output'];
  const error = event['error'] ?? (isRecord(output) ? output['error'] : undefined);
  if (!isRecord(error) || error['name'] !== MISS_NAME) return undefined;
  return { message: typeof error['message'] === 'string' ? error['message'] : '' };
}

/** The mode the replayed run was replayed in (its run start's replay_of), strict if unsaid. */
function replayModeOf(replayed: readonly unknown[]): ReplayMode {
  const start = replayed.find(
    (e): e is Record<string, unknown> =>
      isRecord(e) && e['type'] === 'run' && e['phase'] === 'start',
  );
  const metadata = start?.['metadata'];
  const of = isRecord(metadata) ? metadata['replay_of'] : undefined;
  const mode = isRecord(of) ? of['mode'] : undefined;
  return mode === 'ordered' || mode === 'live-on-miss' ? mode : 'strict';
}
