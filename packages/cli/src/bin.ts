#!/usr/bin/env node
// The `runback` executable: runCli bound to this process.
import { nodeIO } from '@runback/verify-cli';
import { runCli } from './run-cli.js';

// A reader that stops early (`runback inspect r.json | head`) closes the pipe: that is not
// an error worth a stack trace. Further output is dropped; the exit status stays the command's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
    throw err;
  });
}

runCli(process.argv.slice(2), nodeIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`runback: unexpected failure: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 70;
  },
);
