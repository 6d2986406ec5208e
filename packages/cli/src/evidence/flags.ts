// Which `runback verify` invocations go to the evidence check (kept apart so a plain record
// check never loads the bundle and log code).

/** The flags that make `runback verify` an evidence check rather than a plain record check. */
export const EVIDENCE_FLAGS = [
  '--proof',
  '--log-key',
  '--witness',
  '--anchors',
  '--expect-head',
  '--manifest',
  '--report',
];

/** Whether argv asks for more than @runback/verify-cli's record check. */
export function wantsEvidence(argv: readonly string[]): boolean {
  return argv.some(
    (a) =>
      EVIDENCE_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)) || /\.(?:tar\.gz|tgz)$/i.test(a),
  );
}

export const EVIDENCE_USAGE = `
Evidence options (bundles and records):
  FILE.tar.gz             a bundle from runback bundle: the record, every artifact's size and
                          SHA-256, SHA256SUMS and the archive's structure are checked
  --proof PROOF.json      an inclusion proof (runback log prove) for a record FILE
  --log-key PEM           the log's public key: the proof (a bundle's own, or --proof) must verify
  --witness PEM           a witness whose cosignature the proof's checkpoint must carry (repeatable)
  --anchors heads.jsonl   the record's head must match its anchor line (and heads.sha256 beside
                          it, when present)
  --expect-head HASH      the record's content digest must be HASH
  --manifest release.json the record (and, for a bundle, its reports and the bundle) must match
                          the release manifest
  --report FILE           a report file of a plain record, for --anchors and --manifest (repeatable)`;
