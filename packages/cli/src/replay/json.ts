// The --json report of `runback replay`, in snake_case like every runback command's JSON. The
// SDK's ReplayReport is a TypeScript API (camelCase); this names each member explicitly, so a
// field added to the SDK type cannot leak into the CLI's output in another case unnoticed.
import type { JsonChange } from '@runback/diff';
import type { ReplayReport } from '@runback/sdk';

type RunFacts = ReplayReport['recorded'];
type Miss = ReplayReport['misses'][number];

/** The replay report as printed with --json: snake_case members only. */
export function replayReportJson(
  report: ReplayReport,
  recordPath: string,
  out: string | undefined,
  outputDiff: readonly JsonChange[],
): Record<string, unknown> {
  const d = report.divergence;
  return {
    record: recordPath,
    out: out ?? null,
    status: report.status,
    mode: report.mode,
    tools: report.tools,
    tool_calls: report.toolCalls,
    verdict: report.verdict,
    recorded: facts(report.recorded),
    replayed: facts(report.replayed),
    cassette_matches: report.cassetteMatches,
    output_matches: report.outputMatches,
    divergence:
      d === null
        ? null
        : {
            call: d.call,
            kind: d.kind,
            name: d.name,
            reason: d.reason,
            recorded_seq: d.recordedSeq,
            replayed_seq: d.replayedSeq,
            input: d.input,
            output: d.output,
            nearest: d.nearest,
            message: d.message,
            departure:
              d.departure === null
                ? null
                : {
                    call: d.departure.call,
                    kind: d.departure.kind,
                    name: d.departure.name,
                    reason: d.departure.reason,
                    recorded_seq: d.departure.recordedSeq,
                    replayed_seq: d.departure.replayedSeq,
                    input: d.departure.input,
                    output: d.departure.output,
                  },
          },
    misses: report.misses.map(miss),
    unserved: report.unserved,
    placeholder_credentials: report.placeholderCredentials,
    output_diff: outputDiff,
  };
}

function facts(f: RunFacts): Record<string, unknown> {
  return {
    run_id: f.runId,
    status: f.status,
    cassette_digest: f.cassetteDigest,
    entry_count: f.entryCount,
    output: f.output,
    error: f.error,
  };
}

function miss(m: Miss): Record<string, unknown> {
  return {
    kind: m.kind,
    name: m.name,
    key: m.key,
    mode: m.mode,
    nearest: m.nearest,
    input_diff: m.inputDiff,
    went_live: m.wentLive,
  };
}
