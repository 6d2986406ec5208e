// @runback/cli: the `runback` command line, callable in-process (tests, embedding tools).
export { mainUsage, runCli } from './run-cli.js';
export { CliError, EXIT } from './errors.js';
export type { Command } from './command.js';
export type { CommandIO } from '@runback/verify-cli';
/** The CommandIO of this process (its stdout, stderr, files and environment), for runCli. */
export { nodeIO } from '@runback/verify-cli';
export {
  summarizeRecord,
  type ChainStatus,
  type EventError,
  type ModelUsage,
  type RecordSummary,
  type TokenTotals,
  type ToolUsage,
} from './inspect/summarize.js';
export { formatSummary } from './inspect/format.js';
