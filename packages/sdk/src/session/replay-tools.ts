// What a replay does with a `tool()` call's body (docs/guides/replay.md, "What a replay proves"):
//   recorded  the recorded output (or error) answers, the body does not run; the calls the
//             record holds inside the body are given back as they were recorded;
//   live      the body runs, its own model, tool, fetch, clock and random calls are answered from
//             the record, and what it returns is recorded, so a changed implementation shows up
//             as a divergence at that tool call.
import { argError } from '../core/errors.js';

/** How a replay treats `tool()` bodies. */
export type ReplayTools = 'recorded' | 'live';

/** The tool modes, for argument checking. */
export const REPLAY_TOOLS: readonly ReplayTools[] = ['recorded', 'live'];

/** Checks a tool mode option; undefined is the default, `recorded`. */
export function checkReplayTools(name: string, value: unknown): ReplayTools {
  if (value === undefined) return 'recorded';
  if (!REPLAY_TOOLS.includes(value as ReplayTools)) {
    throw argError(name, REPLAY_TOOLS.join(' | '), value);
  }
  return value as ReplayTools;
}
