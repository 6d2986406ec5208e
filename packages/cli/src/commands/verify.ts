// `runback verify`: the verify command of @runback/verify-cli, unchanged. One implementation of
// flags, report and exit codes serves both `runback verify` and `npx @runback/verify`.
import { runVerifyCommand, verifyUsage } from '@runback/verify-cli';
import type { Command } from '../command.js';

const PROGRAM = 'runback verify';

export const command: Command = {
  usage: verifyUsage(PROGRAM),
  run: (argv, io) => runVerifyCommand([...argv], io, PROGRAM),
};
