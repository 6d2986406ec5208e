// `runback log`: a file-backed transparency log of record heads (RFC 9162 Merkle tree, C2SP
// signed checkpoints). Each subcommand lives in ../log/.
import type { Command } from '../command.js';
import { usageError } from '../errors.js';
import { logAppend } from '../log/append.js';
import { logCheckpoint } from '../log/checkpoint.js';
import { logCosign } from '../log/cosign.js';
import { logInit } from '../log/init.js';
import type { CommandIO } from '../log/io.js';
import { logProve } from '../log/prove.js';
import { logVerify } from '../log/verify.js';

const usage = `Usage: runback log <subcommand> [options]

A transparency log of record heads (run_id, content_digest, cassette_digest): an
append-only Merkle tree (RFC 9162) in a directory, with checkpoints signed in the C2SP
signed-note format (Ed25519). Proofs verify offline with the log's public key.

Subcommands:
  init DIR --origin NAME          create an empty log named NAME (e.g. example.com/runback-log)
  append DIR RECORD...            add each intact record's head (a record already logged is
                                  skipped; a different record under a logged run id is refused)
  checkpoint DIR --key KEY_PEM    sign the current tree head (refused if the entries no longer
                                  extend the last checkpoint) and keep it as DIR/checkpoint
  cosign DIR --key WITNESS_PEM --name NAME --log-key LOG_PUB [--from OLD] [--time SECONDS]
                                  add a witness cosignature (C2SP tlog-cosignature), after
                                  checking the log's signature and, with --from, that it only grew
  prove DIR RUN_ID|RECORD [-o PROOF.json]
                                  write the inclusion proof of a run against DIR/checkpoint
  verify DIR --from OLD_CHECKPOINT --log-key LOG_PUB [--witness PEM]... [--out F]
                                  prove the log only grew since OLD_CHECKPOINT (consistency);
                                  --out writes the consistency proof document
  verify --proof CONSISTENCY.json --log-key LOG_PUB [--witness PEM]...
                                  check a consistency proof document offline

Every subcommand takes --json. Keys: KEY_PEM is a private key from runback keygen; LOG_PUB
and --witness take an SPKI PEM public key or a C2SP verifier key (name+id+key).
Check an inclusion proof with: runback verify RECORD --proof PROOF.json --log-key LOG_PUB

Exit status: 0 done (verify: consistent), 1 refused or not consistent, 64 usage error.`;

const SUBCOMMANDS: Readonly<
  Record<string, (argv: readonly string[], io: CommandIO) => Promise<number>>
> = {
  init: logInit,
  append: logAppend,
  checkpoint: logCheckpoint,
  cosign: logCosign,
  prove: logProve,
  verify: logVerify,
};

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  const sub =
    name !== undefined && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (sub === undefined) {
    throw usageError(
      'USAGE_UNKNOWN_SUBCOMMAND',
      `expected a subcommand (${Object.keys(SUBCOMMANDS).join(', ')}), got ${name === undefined ? 'none' : JSON.stringify(name)}`,
    );
  }
  return sub(rest, io);
}

export const command: Command = { usage, run };
