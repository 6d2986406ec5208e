// The members every event starts with (docs/spec.md §3), for the hand-written records of the
// tests and of the corpus generator (test/make-corpus.js, plain JavaScript, so this file is too).
export function eventHeader(runId, seq, span, parent, t0, t1, type) {
  return {
    schema_version: 1,
    run_id: runId,
    span_id: span,
    parent_span_id: parent,
    seq,
    ts_start: t0,
    ts_end: t1,
    type,
  };
}
