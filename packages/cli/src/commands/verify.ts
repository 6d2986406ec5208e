// `runback verify`: the verify command of @runback/verify-cli, unchanged. One implementation of
// flags, report and exit codes serves both `runback verify` and `npx @runback/verify`.
import { runVerifyCommand, verifyUsage } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { EVIDENCE_USAGE, wantsEvidence } from '../evidence/flags.js';

const PROGRAM = 'runback verify';

// Bundles, proofs, anchors and manifests go to the evidence check; a plain record check is
// runback-verify's, byte for byte.
export const command: Command = {
  usage: verifyUsage(PROGRAM) + '\n' + EVIDENCE_USAGE,
  run: async (argv, io) =>
    wantsEvidence(argv)
      ? (await import('../evidence/verify.js')).runEvidenceVerify(argv, io)
      : runVerifyCommand([...argv], io, PROGRAM),
};
