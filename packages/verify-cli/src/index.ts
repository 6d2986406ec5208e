// @runback/verify-cli: the command-line front-end of @runback/verify (the `runback-verify`
// bin) and the terminal layer @runback/cli builds on: I/O, style, exit statuses, key flags.
export { EXIT, UsageError, type CommandIO, type ExitCode, type VerifyUsageCode } from './io.js';
export { nodeIO } from './node-io.js';
export { makeStyle, useColor, type Style } from './style.js';
export { escapeTerminal, hasTerminalControl } from './escape-terminal.js';
export { editDistance, FlagError, parseFlags } from './parse-flags.js';
export { formatReport } from './report.js';
export {
  loadTrust,
  pemKeyTextRefusal,
  stripOneNewline,
  TRUST_FLAG_OPTIONS,
  type TrustFlags,
} from './trust-flags.js';
export { exitCodeOf, runVerifyCommand, verifyUsage } from './verify-command.js';
export { runVerifyBin } from './main.js';
