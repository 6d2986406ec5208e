// README.txt of a bundle: what the files are and how to check them, for whoever receives it.
import { PROOF_FILE } from './paths.js';

export function bundleReadme(runId: string, files: readonly string[]): string {
  const has = (name: string) => files.includes(name);
  return `runback evidence bundle for run ${runId}

This archive holds one recorded AI agent run and the files it produced:

  record.json    the run's record: a hash-chained, signed list of events (docs/spec.md)
  artifacts/     every file an event names in its "artifacts" list, byte for byte
  report.md      a human summary of the run (also report.html); informational, not signed
  SHA256SUMS     the SHA-256 of every other file here (sha256sum -c SHA256SUMS)
${has(PROOF_FILE) ? `  proof.json     an inclusion proof of this record in a transparency log\n` : ''}
Check everything at once (offline):

  runback verify ${runId}.tar.gz --pubkey SIGNER.pub.pem${has(PROOF_FILE) ? ' --log-key LOG.pub.pem' : ''}

This checks the record (schema, chain, digests, signature), that every artifact has the
size and SHA-256 the signed record names, and the archive's structure. The record proves
what was sent and received during the run; it does not prove the run's conclusions right.
`;
}
