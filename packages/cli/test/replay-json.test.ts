// `runback replay --json` speaks snake_case like every other command: no camelCase member at
// any depth of the report (record-derived values — outputs, inputs, diff values — excepted).
import { diffJson } from '@runback/diff';
import { compareRuns } from '@runback/sdk/process';
import { sealRecord } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { describe, expect, it } from 'vitest';
import { replayReportJson } from '../src/replay/json.js';
import { GENERATED_AT, realisticRun } from './support.js';

// Members whose values come from the record, not from runback.
const DATA = new Set(['output', 'error', 'input', 'before', 'after', 'status']);

function memberNames(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) memberNames(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      if (!DATA.has(k)) memberNames(v, into);
    }
  }
  return into;
}

describe('replay --json report', () => {
  it('a diverged replay: every member snake_case, divergence and run facts included', () => {
    const recorded = sealRecord(realisticRun(), { generatedAt: GENERATED_AT });
    const changed = realisticRun();
    (changed.events[2] as { output: unknown }).output = { score: 100 };
    const replayed = sealRecord(changed, { generatedAt: GENERATED_AT });
    const verification = verifyJson(new TextEncoder().encode(JSON.stringify(recorded)));
    const report = compareRuns(recorded, replayed, 'ordered', verification, undefined);
    const json = replayReportJson(
      report,
      'rec.json',
      undefined,
      diffJson(report.recorded.output, report.replayed.output),
    );
    const names = memberNames(JSON.parse(JSON.stringify(json)));
    expect(names).toContain('cassette_matches');
    expect(names).toContain('entry_count');
    expect(names).toContain('recorded_seq');
    expect(names.filter((n) => !/^[a-z][a-z0-9_]*$/.test(n))).toEqual([]);
    expect(json).toMatchObject({
      record: 'rec.json',
      out: null,
      status: 'diverged',
      cassette_matches: false,
      recorded: { entry_count: report.recorded.entryCount, run_id: report.recorded.runId },
      divergence: { call: report.divergence?.call, reason: report.divergence?.reason },
    });
  });
});
