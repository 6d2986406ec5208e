// @runback/verify/cli: the verify command as a function, for the `runback-verify` bin and
// for `runback verify` in @runback/cli (one implementation, two entry points).
export { EXIT, UsageError, useColor, type CommandIO } from './io.js';
export { nodeIO } from './node-io.js';
export { formatReport, makeStyle, type Style } from './report.js';
export { exitCodeOf, runVerifyCommand, verifyUsage } from './verify-command.js';
