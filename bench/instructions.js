// Instructions one warm verifyJson call executes, counted by valgrind, for comparing two builds
// of the verifier on a host too noisy to time a change of a few per cent (docs/benchmarks.md,
// "Comparing two builds on a noisy host"). Not part of `pnpm bench`: it needs valgrind, takes
// about a minute per build, and answers "which build does less work", not "is a row within its
// limit".
//
//   node bench/instructions.js [MODULE…]
//
// Each MODULE is a path to a build's entry file (default: this checkout's @runback/verify),
// e.g. a copy of an older packages/verify/dist/index.js kept under packages/verify/node_modules
// so that its own imports resolve. For each, a 4,000-event record in JSON.stringify member
// order (`_hash` last, as (b) writes it) is verified 3 and 13 times in a process under
// `valgrind --tool=callgrind`, with V8 single-threaded (its compiler and collector threads
// otherwise make the count move by about 5 %); the difference over ten is one warm call.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { publicKeyToPem } from '@runback/sign';
import { inWrittenOrder, makeRunInput, makeSignedRecord } from './make-record.js';

const EVENTS = 4_000;
const FEW = 3;
const MANY = 13;

const CHILD = `
import { readFileSync } from 'node:fs';
const [, module, file, pemFile, times] = process.argv;
const { verifyJson } = await import(module);
const bytes = readFileSync(file);
const options = { pinned: [readFileSync(pemFile, 'utf8')] };
for (let i = 0; i < Number(times); i++)
  if (verifyJson(bytes, options).verdict !== 'valid') throw new Error('not valid');
`;

/** Instructions callgrind counted for a process verifying the record `times` times. */
function countFor(module, file, pemFile, times) {
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      '--input-type=module',
      '-e',
      CHILD,
      module,
      file,
      pemFile,
      String(times),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  if (run.error !== undefined) throw new Error(`valgrind could not run: ${run.error.message}`);
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (run.status !== 0 || collected === null)
    throw new Error(`expected valgrind to report a count, got exit ${run.status}: ${run.stderr}`);
  return Number(collected[1]);
}

const modules = process.argv.slice(2);
if (modules.length === 0) modules.push(createRequire(import.meta.url).resolve('@runback/verify'));
const dir = mkdtempSync(join(tmpdir(), 'runback-instructions-'));
try {
  const { record, publicKey } = makeSignedRecord(EVENTS);
  const file = join(dir, 'record.json');
  writeFileSync(file, JSON.stringify(inWrittenOrder(record, makeRunInput(EVENTS))));
  const pemFile = join(dir, 'signer.pub.pem');
  writeFileSync(pemFile, publicKeyToPem(publicKey));
  for (const module of modules) {
    const url = pathToFileURL(resolve(module)).href;
    const few = countFor(url, file, pemFile, FEW);
    const many = countFor(url, file, pemFile, MANY);
    const perCall = (many - few) / (MANY - FEW);
    console.log(
      `${module}: ${(perCall / 1e6).toFixed(1)} million instructions per warm verifyJson of ${EVENTS.toLocaleString('en')} events (${FEW} calls ${(few / 1e6).toFixed(0)} M, ${MANY} calls ${(many / 1e6).toFixed(0)} M)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
