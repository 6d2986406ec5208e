// A log proof travelling inside a bundle: checked against the bundled record's own head with
// the log key, and refused when it proves another record or comes from another log.
import { generateEd25519KeyPair } from '@runback/sign';
import {
  inclusionProofDocument,
  proveInclusion,
  recordHeadOf,
  signCheckpoint,
  treeHeadOf,
  type RecordHead,
} from '@runback/tlog';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, recordText, SIGNER_PEM } from '../test/fixtures.js';
import { writeBundle } from './node.js';
import { verifyBundle } from './verify-bundle.js';

const enc = new TextEncoder();
const LOG = generateEd25519KeyPair(new Uint8Array(32).fill(5));
const OTHER = generateEd25519KeyPair(new Uint8Array(32).fill(6));
const text = recordText();
const head = recordHeadOf(JSON.parse(text));
const filler = (i: number): RecordHead => ({
  run_id: `run_${i}`,
  content_digest: String(i % 10).repeat(64),
  cassette_digest: 'e'.repeat(64),
});

function proofFor(proven: RecordHead, key = LOG.privateKey): string {
  const heads = [filler(1), proven, filler(2), filler(3), filler(4)];
  const { size, root } = treeHeadOf(heads);
  const checkpoint = signCheckpoint(
    { origin: 'runback.test/log', size, root, extensions: [] },
    key,
  );
  return JSON.stringify(
    inclusionProofDocument({
      head: proven,
      leafIndex: 1,
      treeSize: size,
      proof: proveInclusion(heads, 1),
      checkpoint,
    }),
  );
}

async function bundleWith(proof: string): Promise<Uint8Array> {
  const written = await writeBundle({ record: enc.encode(text), artifacts: ARTIFACTS, proof });
  if (!written.ok) throw new Error(JSON.stringify(written.issues));
  return written.bytes;
}

const pinned = { pinned: [SIGNER_PEM] };

describe('a proof inside a bundle', () => {
  it('verifies offline with the log key, and is only noted without one', async () => {
    const gz = await bundleWith(proofFor(head));
    const r = await verifyBundle(gz, { verify: pinned, logKey: LOG.publicKey });
    expect(r).toMatchObject({
      verdict: 'valid',
      errors: [],
      proof: { ok: true, checkpoint: { size: 5 } },
    });
    const without = await verifyBundle(gz, { verify: pinned });
    expect(without.verdict).toBe('valid');
    expect(without.notes.join(' ')).toContain('proof.json is present but was not checked');
  });

  it('refuses a proof of another record, from another log key, and a missing proof', async () => {
    const other = await bundleWith(proofFor({ ...head, content_digest: 'f'.repeat(64) }));
    const r1 = await verifyBundle(other, { verify: pinned, logKey: LOG.publicKey });
    expect(r1.verdict).toBe('invalid');
    expect(r1.proof?.errors.map((e) => e.code)).toEqual(['PROOF_HEAD_MISMATCH']);
    const foreign = await bundleWith(proofFor(head, OTHER.privateKey));
    const r2 = await verifyBundle(foreign, { verify: pinned, logKey: LOG.publicKey });
    expect(r2.proof?.errors.map((e) => e.code)).toEqual(['CHECKPOINT_NOT_SIGNED_BY_LOG']);
    const none = await writeBundle({ record: enc.encode(text), artifacts: ARTIFACTS });
    if (!none.ok) throw new Error('expected a bundle');
    const r3 = await verifyBundle(none.bytes, { verify: pinned, logKey: LOG.publicKey });
    expect(r3.errors.map((e) => e.code)).toEqual(['BUNDLE_PROOF_MISSING']);
  });
});
