#!/usr/bin/env node
// runback-verify: `npx @runback/verify FILE [--json] [--key K] [--pubkey PEM]`.
import { nodeIO } from './cli/node-io.js';
import { runVerifyCommand } from './cli/verify-command.js';

// A reader that stops early (`| head`) closes the pipe: that is not a failure of the command.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

runVerifyCommand(process.argv.slice(2), nodeIO(), 'runback-verify').then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `runback-verify: unexpected failure: ${(err as Error)?.stack ?? String(err)}\n`,
    );
    process.exitCode = 70;
  },
);
