/** The members every event starts with (docs/spec.md §3). */
export function eventHeader(
  runId: string,
  seq: number,
  span: string,
  parent: string | null,
  t0: string,
  t1: string,
  type: string,
): {
  schema_version: 1;
  run_id: string;
  span_id: string;
  parent_span_id: string | null;
  seq: number;
  ts_start: string;
  ts_end: string;
  type: string;
};
