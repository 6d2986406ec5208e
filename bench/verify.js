// (b) verifying records against the floor of the same file (read + JSON.parse + one SHA-256),
// interleaved in one run: our writer's record (each event's members sorted, _hash first, the
// values inside as the program gave them, spec §7), the same record in plain JSON.stringify member order with _hash last, the same
// pretty-printed with a 2-space indent, verifyStream over a file stream, and the CLI as a whole
// process against the floor as a whole process; peak RSS of each (GNU time, child processes);
// start-up of both command-line entry points on a small record against `node -e 0`, with the
// files each loads; and a generated record of RUNBACK_BENCH_HUGE_MB (default 1024) MB verified
// by `runback verify` as a process (the file streamed), then removed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventHash } from '@runback/chain';
import { CassetteBuilder } from '@runback/replay-digest';
import { publicKeyToPem, signEd25519 } from '@runback/sign';
import { verifyJson, verifyStream } from '@runback/verify';
import { inWrittenOrder, makeRunInput, makeSignedRecord } from './make-record.js';
import { fmt, interleavedRounds, median, sideBySide } from './stats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'packages', 'cli', 'bin', 'runback.js');
const VERIFY_BIN = join(root, 'packages', 'verify-cli', 'bin', 'runback-verify.js');
const COUNT_MODULES = join(root, 'bench', 'count-modules.js');
const HUGE_MB = Number(process.env.RUNBACK_BENCH_HUGE_MB ?? 1024);

const FLOOR_SCRIPT =
  "const b=require('fs').readFileSync(process.argv[1]);JSON.parse(b.toString('utf8'));require('crypto').createHash('sha256').update(b).digest('hex')";

/** Peak RSS (MB), wall time and CPU time (user + system, ms) of a child process, by GNU time. */
function measure(args) {
  const t = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const ms = performance.now() - t;
  if (run.status !== 0 && run.status !== 2)
    throw new Error(`child failed (${run.status}): ${run.stderr}`);
  const [kb, user, system] = (run.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { ms, rssMb: kb / 1024, cpuMs: (user + system) * 1000, stdout: run.stdout };
}

/** Writes the three record files of (b); returns the signer's PEM and the files' paths. */
function writeRecordFiles(dir, events) {
  const { record, publicKey } = makeSignedRecord(events);
  const input = makeRunInput(events);
  const files = {
    own: join(dir, 'own.json'),
    foreign: join(dir, 'foreign.json'),
    pretty: join(dir, 'pretty.json'),
  };
  writeFileSync(files.own, JSON.stringify(record));
  writeFileSync(files.foreign, JSON.stringify(inWrittenOrder(record, input)));
  writeFileSync(files.pretty, JSON.stringify(inWrittenOrder(record, input), null, 2));
  return { pem: publicKeyToPem(publicKey), files };
}

export async function benchVerify(results, events) {
  const dir = mkdtempSync(join(tmpdir(), 'runback-bench-verify-'));
  try {
    // The generated record and run are dropped before anything is timed: a verifier does not
    // hold them, and two 100k-event object graphs kept alive make every major collection of
    // the timed calls mark them (verifyJson measured 1.9× the floor without them, 3.2× with).
    const { pem, files } = writeRecordFiles(dir, events);
    const pemFile = join(dir, 'signer.pub.pem');
    writeFileSync(pemFile, pem);
    const options = { pinned: [pem] };
    for (const file of Object.values(files)) {
      const r = verifyJson(readFileSync(file), options);
      if (r.verdict !== 'valid')
        throw new Error(`${file} did not verify: ${JSON.stringify(r.errors)}`);
    }

    const floorOf = (file) => () => {
      const bytes = readFileSync(file);
      JSON.parse(bytes.toString('utf8'));
      createHash('sha256').update(bytes).digest('hex');
    };
    const verifyOf = (file) => () => {
      if (verifyJson(readFileSync(file), options).verdict !== 'valid')
        throw new Error('verdict changed');
    };
    const rows = [];
    console.log(
      `(b) verify a ${events.toLocaleString('en')}-event signed record: ratios to the floor of the same file (read + JSON.parse + SHA-256)`,
    );
    console.log(
      '    row                                   MB    floor ms   verify ms   ratio   (round by round)   CPU ratio   peak RSS MB (floor / verify)',
    );
    for (const [name] of [
      ['own', "our writer's record (_hash first)"],
      ['foreign', 'JSON.stringify order, _hash last'],
      ['pretty', 'the same, 2-space indent'],
    ]) {
      const file = files[name];
      const [floor, verify] = await interleavedRounds([floorOf(file), verifyOf(file)], {
        runs: 7,
        warmup: 1,
      });
      const rssFloor = measure(['-e', FLOOR_SCRIPT, file]).rssMb;
      const rssVerify = measure([
        '--input-type=module',
        '-e',
        `import {verifyJson} from '@runback/verify';import {readFileSync} from 'node:fs';const r=verifyJson(readFileSync(process.argv[1]),{pinned:[readFileSync(process.argv[2],'utf8')]});if(r.verdict!=='valid')process.exit(1)`,
        file,
        pemFile,
      ]).rssMb;
      rows.push({
        name,
        mb: statSync(file).size / 1e6,
        ...sideBySide(floor, verify),
        rss_floor_mb: rssFloor,
        rss_verify_mb: rssVerify,
      });
    }
    // verifyStream over a file stream, interleaved with the floor of the same file as the rows
    // above: by default (a stream this short is held and verified whole), and event by event
    // (wholeBytes 0, how a stream longer than 64 MiB is read, and what `runback verify` does for
    // such files).
    for (const [name, extra] of [
      ['stream', ''],
      ['stream-events', ',wholeBytes:0'],
    ]) {
      const file = files.foreign;
      const streamOptions = name === 'stream' ? options : { ...options, wholeBytes: 0 };
      const streamed = async () => {
        const r = await verifyStream(
          createReadStream(file, { highWaterMark: 1 << 20 }),
          streamOptions,
        );
        if (r.verdict !== 'valid') throw new Error('verifyStream did not verify the record');
      };
      const [floor, verify] = await interleavedRounds([floorOf(file), streamed], {
        runs: 7,
        warmup: 1,
      });
      const rss = measure([
        '--input-type=module',
        '-e',
        `import {verifyStream} from '@runback/verify';import {createReadStream,readFileSync} from 'node:fs';const r=await verifyStream(createReadStream(process.argv[1],{highWaterMark:1<<20}),{pinned:[readFileSync(process.argv[2],'utf8')]${extra}});if(r.verdict!=='valid')process.exit(1)`,
        file,
        pemFile,
      ]).rssMb;
      rows.push({
        name,
        mb: statSync(file).size / 1e6,
        ...sideBySide(floor, verify),
        rss_floor_mb: rows[1].rss_floor_mb,
        rss_verify_mb: rss,
      });
    }
    // Whole processes: `runback verify --json` against `node -e` read + parse + hash.
    {
      const file = files.foreign;
      const floors = [];
      const clis = [];
      for (let k = 0; k < 7; k++) {
        floors.push(measure(['-e', FLOOR_SCRIPT, file]));
        clis.push(measure([CLI, 'verify', file, '--json', '--pubkey', pemFile]));
      }
      const verdict = JSON.parse(clis[0].stdout).verdict;
      if (verdict !== 'valid') throw new Error(`runback verify said ${verdict}`);
      const rounds = (list) => ({ wall: list.map((x) => x.ms), cpu: list.map((x) => x.cpuMs) });
      rows.push({
        name: 'cli',
        mb: statSync(file).size / 1e6,
        ...sideBySide(rounds(floors), rounds(clis)),
        rss_floor_mb: floors[0].rssMb,
        rss_verify_mb: clis[0].rssMb,
      });
    }
    const labels = {
      own: "our writer's record (_hash first)",
      foreign: 'JSON.stringify order, _hash last',
      pretty: 'the same, 2-space indent',
      stream: 'verifyStream, JSON.stringify order',
      'stream-events': 'verifyStream event by event, same',
      cli: 'runback verify (process) vs node -e',
    };
    for (const r of rows)
      console.log(
        `    ${labels[r.name].padEnd(38)}${fmt(r.mb)}  ${fmt(r.floor_ms)}  ${fmt(r.verify_ms)}  ${fmt(r.ratio, 2)}   (${r.ratio_min.toFixed(2)}–${r.ratio_max.toFixed(2)})      ${fmt(r.cpu_ratio, 2)}   ${fmt(r.rss_floor_mb, 0)} / ${fmt(r.rss_verify_mb, 0)}`,
      );
    results.verify = { events, rows };

    // Start-up: both command-line entry points on a 10-event signed record (key pinned),
    // interleaved with `node -e 0`; the files each loads, counted in a run of its own.
    {
      const small = join(dir, 'small.json');
      const signed = makeSignedRecord(10);
      writeFileSync(small, JSON.stringify(signed.record));
      const smallPem = join(dir, 'small.pub.pem');
      writeFileSync(smallPem, publicKeyToPem(signed.publicKey));
      const entries = {
        runback: [CLI, 'verify', small, '--json', '--pubkey', smallPem],
        'runback-verify': [VERIFY_BIN, small, '--json', '--pubkey', smallPem],
      };
      const times = { node: [], runback: [], 'runback-verify': [] };
      for (let k = 0; k < 11; k++) {
        times.node.push(measure(['-e', '0']).ms);
        for (const [name, args] of Object.entries(entries)) {
          const run = measure(args);
          if (JSON.parse(run.stdout).verdict !== 'valid')
            throw new Error(`${name} did not verify the small record`);
          times[name].push(run.ms);
        }
      }
      const node = median(times.node);
      results.verify.startup = { node_ms: node };
      for (const [name, args] of Object.entries(entries)) {
        const list = join(dir, `${name}.modules`);
        const counted = spawnSync(process.execPath, ['--import', COUNT_MODULES, ...args], {
          env: { ...process.env, RUNBACK_MODULES_OUT: list },
          encoding: 'utf8',
        });
        if (counted.status !== 0) throw new Error(`${name} failed: ${counted.stderr}`);
        const files = readFileSync(list, 'utf8').trim().split('\n');
        const ms = median(times[name]);
        results.verify.startup[name] = {
          ms,
          over_node_ms: ms - node,
          modules: files.length,
          noble_modules: files.filter((f) => /@noble|@scure/.test(f)).length,
        };
        console.log(
          `    start-up, ${name.padEnd(14)} 10-event record: ${fmt(ms)} ms, node -e 0 ${fmt(node)} ms (+${fmt(ms - node)} ms), ${files.length} files loaded (${results.verify.startup[name].noble_modules} from @noble/@scure)`,
        );
      }
    }

    // A huge record, generated to a temp file and verified by `runback verify` as a process.
    if (HUGE_MB > 0) {
      const huge = join(dir, 'huge.json');
      const written = await writeHugeRecord(huge, HUGE_MB * 1e6);
      try {
        const run = measure([CLI, 'verify', huge, '--json', '--pubkey', written.pemFile]);
        const verdict = JSON.parse(run.stdout).verdict;
        results.verify.huge = {
          mb: written.bytes / 1e6,
          events: written.events,
          verdict,
          ms: run.ms,
          rss_mb: run.rssMb,
        };
        console.log(
          `    ${(written.bytes / 1e6).toFixed(0)} MB generated record (${written.events.toLocaleString('en')} events), runback verify as a process: ${verdict}, ${fmt(run.ms / 1000)} s, peak RSS ${fmt(run.rssMb, 0)} MB (limit 512)`,
        );
      } finally {
        rmSync(huge, { force: true });
      }
    }
    console.log('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes a signed record of about `bytes` bytes to `file` without holding it: events are
 * sealed one at a time (chain and cassette digests kept incrementally), members in written
 * order with _hash last, and the manifest comes after the events (member order is free).
 */
async function writeHugeRecord(file, bytes) {
  const { publicKey, privateKey } = (await import('@runback/sign')).generateEd25519KeyPair(
    new Uint8Array(32).fill(7),
  );
  const block = makeRunInput(1002).events.slice(1, -1);
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? undefined : new Promise((r) => out.once('drain', r)));
  const runId = 'run_bench0001';
  const start = {
    schema_version: 1,
    run_id: runId,
    span_id: 'r',
    parent_span_id: null,
    seq: 0,
    ts_start: '2026-06-14T02:47:11.000Z',
    ts_end: null,
    type: 'run',
    phase: 'start',
    name: 'triage-agent',
    status: 'running',
    input: { case_id: 'C-1' },
  };
  let head = '';
  const cassette = new CassetteBuilder();
  let written = 0;
  let seq = 0;
  const put = async (event, first) => {
    head = eventHash(head, event);
    cassette.add(event);
    const text = (first ? '' : ',') + JSON.stringify({ ...event, _hash: head });
    written += text.length;
    await write(text);
  };
  await write('{"$schema":"runback.audit/v2","events":[');
  await put(start, true);
  while (written < bytes - 2000) {
    for (const e of block) {
      seq++;
      await put({ ...e, seq, span_id: `${e.type[0]}${seq}` }, false);
      if (written >= bytes - 2000) break;
    }
  }
  seq++;
  await put(
    {
      ...start,
      seq,
      span_id: 'r',
      ts_start: '2026-06-14T03:47:11.000Z',
      ts_end: '2026-06-14T03:47:11.000Z',
      phase: 'end',
      status: 'success',
      output: { done: true },
    },
    false,
  );
  const manifest = {
    run_id: runId,
    generated_at: '2026-06-14T03:47:12.000Z',
    event_count: seq + 1,
    algorithm: 'sha256-chain',
    content_digest: head,
    replay: {
      cassette_digest: cassette.digest,
      entry_count: cassette.entryCount,
      algorithm: 'oracle-chain/sha256',
    },
    signed: true,
    signature: {
      alg: 'Ed25519',
      value: signEd25519(`${head}:${cassette.digest}`, privateKey),
      pubkey: publicKeyToPem(publicKey),
    },
  };
  await write(
    `],"run":${JSON.stringify({ run_id: runId, name: 'triage-agent', status: 'success', started_at: start.ts_start })},"manifest":${JSON.stringify(manifest)}}`,
  );
  await new Promise((r) => out.end(r));
  const pemFile = `${file}.pem`;
  writeFileSync(pemFile, publicKeyToPem(publicKey));
  return { bytes: statSync(file).size, events: seq + 1, pemFile };
}
