// The limits `pnpm bench` holds the measured figures to, one row each, read from the results
// object the sections fill in (docs/benchmarks.md lists the same). `node bench/run.js --check`
// exits 1 when any row measured in the run is over its limit, naming each one.

/**
 * Each limit: where it is measured, what, the figure (undefined when the section did not run),
 * the limit and which side of it passes.
 */
export function limitsOf(results) {
  const rows = [];
  const add = (section, what, value, limit, sense, unit) =>
    rows.push({ section, what, value, limit, sense, unit });

  const c = results.canonical;
  add(
    '(a)',
    'canonical vs canonicalize, speed ratio',
    c && c.ours_mb_s / c.canonicalize_mb_s,
    1,
    'min',
    '×',
  );

  const labels = {
    own: "verify, our writer's record / floor",
    foreign: 'verify, JSON.stringify order / floor',
    pretty: 'verify, 2-space indent / floor',
    stream: 'verifyStream / floor',
    'stream-events': 'verifyStream event by event (wholeBytes 0) / floor',
    cli: 'runback verify process / node -e floor process',
  };
  for (const [name, what] of Object.entries(labels)) {
    const row = results.verify?.rows?.find((r) => r.name === name);
    add('(b)', what, row?.ratio, 1.5, 'max', '×');
  }
  const huge = results.verify?.huge;
  add(
    '(b)',
    `runback verify of a ${huge ? huge.mb.toFixed(0) : '1,024'} MB record, peak RSS`,
    huge && (huge.verdict === 'valid' ? huge.rss_mb : Infinity),
    512,
    'max',
    'MB',
  );
  add(
    '(c)',
    'recording overhead per llm + tool pair',
    results.recording?.overhead_us_per_pair,
    50,
    'max',
    'µs',
  );
  // The peak live heap (bench/replay.js says why); the sampled figure where it was not measured.
  add(
    '(d)',
    results.replay?.live_heap_vs_record === undefined
      ? 'replay peak heap (sampled) / record size'
      : 'replay peak live heap / record size',
    results.replay?.live_heap_vs_record ?? results.replay?.heap_vs_record,
    3,
    'max',
    '×',
  );
  add('(f)', 'adversarial nesting / floor', results.nesting?.ratio, 3, 'max', '×');
  add(
    '(g)',
    'runback diff of two 100k-event records, peak RSS',
    results.diff?.peak_rss_mb,
    1024,
    'max',
    'MB',
  );
  return rows;
}

/** Whether a measured row is within its limit. */
export const passes = (row) =>
  row.sense === 'max' ? row.value <= row.limit : row.value >= row.limit;

/** Prints the measured rows against their limits; returns the rows over their limit. */
export function reportLimits(results, log = console.log) {
  const measured = limitsOf(results).filter((r) => r.value !== undefined);
  const failed = measured.filter((r) => !passes(r));
  log('limits');
  for (const r of measured) {
    const value = Number.isFinite(r.value) ? r.value.toFixed(r.unit === '×' ? 2 : 0) : 'failed';
    const limit = `${r.sense === 'max' ? '≤' : '≥'} ${r.limit}`;
    log(
      `    ${passes(r) ? 'ok  ' : 'OVER'}  ${r.section} ${r.what.padEnd(52)} ${value.padStart(8)} ${r.unit.padEnd(2)} (limit ${limit})`,
    );
  }
  return failed;
}
