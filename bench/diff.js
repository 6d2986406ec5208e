// (g) `runback diff` of two 100k-event records: wall time and the peak resident set size of
// the diff process. The command runs in a child process of its own, so the figure is the
// diff's alone: neither the records' generation nor this harness is in it. The alignment is a
// Myers diff in linear memory; the table it replaced, (n+1)·(m+1) 32-bit cells, would need
// about 40 GB for two runs of this size.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { generateEd25519KeyPair, sealRecord } from '@runback/sign';
import { makeRunInput } from './make-record.js';

const CLI = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
/** Peak RSS limit for the diff process: 1 GiB. */
const LIMIT_MB = 1024;

/** Run B: run A with one step in a hundred answered differently, some inserted and removed. */
function candidate(count) {
  const { run, events } = makeRunInput(count, 'run_bench0002');
  const edited = [];
  for (const event of events) {
    if (event.type === 'tool' && event.seq % 100 === 2) {
      edited.push({ ...event, output: { ...event.output, status: 'escalated' } });
    } else if (event.type === 'reasoning' && event.seq % 1000 === 4) {
      continue;
    } else {
      edited.push(event);
    }
    if (event.type === 'env' && event.seq % 5000 === 3) {
      edited.push({ ...event, kind: 'uuid', key: 'uuid', output: `u-${event.seq}` });
    }
  }
  const events2 = edited.map((event, seq) => ({ ...event, seq }));
  return { run: { ...run, ended_at: events2.at(-1).ts_end }, events: events2 };
}

function sealed(input) {
  const keys = generateEd25519KeyPair(new Uint8Array(32).fill(7));
  return sealRecord(input, {
    generatedAt: '2026-06-14T02:47:14.000Z',
    signer: { alg: 'Ed25519', privateKey: keys.privateKey },
  });
}

export function benchDiff(results, count) {
  const dir = mkdtempSync(join(tmpdir(), 'runback-bench-diff-'));
  try {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, JSON.stringify(sealed(makeRunInput(count))));
    writeFileSync(b, JSON.stringify(sealed(candidate(count))));
    const rssFile = join(dir, 'rss');
    const hook = join(dir, 'peak-rss.mjs');
    // maxRSS is in KiB, for the whole life of the process.
    writeFileSync(
      hook,
      `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`,
    );
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--import', hook, CLI, 'diff', a, b, '--json'], {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    if (child.status !== 1) {
      throw new Error(
        `runback diff: expected exit 1 (differences), got ${child.status}: ${child.stderr}`,
      );
    }
    const report = JSON.parse(child.stdout);
    const peakMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
    const counts = report.counts ?? report.diff?.counts;
    results.diff = { events: count, seconds, peak_rss_mb: peakMb, counts };
    console.log(
      `(g) runback diff of two ${count.toLocaleString('en')}-event records (own process)`,
    );
    console.log(`    time                ${seconds.toFixed(2)} s`);
    console.log(`    peak RSS            ${peakMb.toFixed(0)} MB (limit ${LIMIT_MB} MB)`);
    console.log(`    steps               ${JSON.stringify(counts)}\n`);
    if (peakMb >= LIMIT_MB) {
      throw new Error(
        `runback diff peak RSS ${peakMb.toFixed(0)} MB: expected under ${LIMIT_MB} MB`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
