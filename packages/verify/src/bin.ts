#!/usr/bin/env node
// runback-verify: `npx @runback/verify FILE [--json] [--key K] [--pubkey PEM]`.
import { nodeIO } from './cli/node-io.js';
import { runVerifyCommand } from './cli/verify-command.js';

runVerifyCommand(process.argv.slice(2), nodeIO(), 'runback-verify').then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`runback-verify: unexpected failure: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 70;
  },
);
