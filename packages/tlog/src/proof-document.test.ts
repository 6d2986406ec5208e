// Inclusion and consistency proof documents end to end: a log of heads, a signed and cosigned
// checkpoint, proofs that verify offline under the pinned keys, and every edit refused with
// its reason.
import { describe, expect, it } from 'vitest';
import { headOf, LOG_KEY, LOG_ORIGIN, OTHER_KEY, WITNESS_KEY } from '../test/fixtures.js';
import { parseCheckpoint } from './checkpoint.js';
import { indexOfRun, proveConsistency, proveInclusion, treeHeadOf } from './log.js';
import { parseNote } from './note.js';
import {
  consistencyProofDocument,
  inclusionProofDocument,
  verifyConsistencyProof,
  verifyInclusionProof,
} from './proof-document.js';
import { cosignCheckpoint, readCheckpoint, signCheckpoint } from './signed-checkpoint.js';

const heads = Array.from({ length: 13 }, (_, i) => headOf(i));

function checkpointAt(size: number, witness = true): string {
  const { root } = treeHeadOf(heads, size);
  const note = signCheckpoint(
    { origin: LOG_ORIGIN, size, root, extensions: [] },
    LOG_KEY.privateKey,
  );
  return witness
    ? cosignCheckpoint(note, 'witness.test/w1', 1_767_607_200, WITNESS_KEY.privateKey)
    : note;
}

function inclusionDoc(index: number, size = heads.length) {
  return inclusionProofDocument({
    head: heads[index]!,
    leafIndex: index,
    treeSize: size,
    proof: proveInclusion(heads, index, size),
    checkpoint: checkpointAt(size),
  });
}

const trust = { logKey: LOG_KEY.publicKey };
const codes = (r: { errors: readonly { code: string }[] }) => r.errors.map((e) => e.code);

describe('checkpoints', () => {
  it('writes the three C2SP lines and signs them under the origin', () => {
    const note = checkpointAt(5, false);
    const parsed = parseNote(note);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const body = parseCheckpoint(parsed.note.text);
    expect(body.ok && body.checkpoint.size).toBe(5);
    expect(parsed.note.text.split('\n').slice(0, 2)).toEqual([LOG_ORIGIN, '5']);
    expect(parsed.note.signatures.map((s) => s.name)).toEqual([LOG_ORIGIN]);
    expect(readCheckpoint(note, trust).ok).toBe(true);
  });

  it('finds a witness by its key alone and refuses a missing or forged cosignature', () => {
    const cosigned = checkpointAt(5);
    const read = readCheckpoint(cosigned, { ...trust, witnessKeys: [WITNESS_KEY.publicKey] });
    expect(read.ok && read.witnesses).toEqual([
      { name: 'witness.test/w1', timestamp: 1_767_607_200 },
    ]);
    const plain = readCheckpoint(checkpointAt(5, false), {
      ...trust,
      witnessKeys: [WITNESS_KEY.publicKey],
    });
    expect(!plain.ok && plain.code).toBe('CHECKPOINT_WITNESS_MISSING');
    // A cosignature line whose signature bytes are damaged (last base64 digit changed).
    const lines = cosigned.split('\n');
    const last = lines[lines.length - 2]!;
    lines[lines.length - 2] =
      last.slice(0, -3) + (last.at(-3) === 'A' ? 'B' : 'A') + last.slice(-2);
    const forged = readCheckpoint(lines.join('\n'), {
      ...trust,
      witnessKeys: [WITNESS_KEY.publicKey],
    });
    expect(!forged.ok && forged.code).toBe('CHECKPOINT_WITNESS_INVALID');
  });

  it('refuses a checkpoint under another key, with an edited size or root', () => {
    const note = checkpointAt(5, false);
    expect(readCheckpoint(note, { logKey: OTHER_KEY.publicKey })).toMatchObject({
      ok: false,
      code: 'CHECKPOINT_NOT_SIGNED_BY_LOG',
    });
    expect(readCheckpoint(note.replace('\n5\n', '\n6\n'), trust)).toMatchObject({
      ok: false,
      code: 'CHECKPOINT_SIGNATURE_INVALID',
    });
    expect(readCheckpoint(note.replace('\n5\n', '\n05\n'), trust)).toMatchObject({
      ok: false,
      code: 'CHECKPOINT_MALFORMED',
    });
    expect(readCheckpoint('not a note', trust)).toMatchObject({
      ok: false,
      code: 'CHECKPOINT_MALFORMED',
    });
  });
});

describe('inclusion proof documents', () => {
  it('verifies every head of the log, offline, with and without the witness', () => {
    for (let i = 0; i < heads.length; i++) {
      const doc = JSON.parse(JSON.stringify(inclusionDoc(i))) as unknown;
      expect(verifyInclusionProof(doc, { ...trust, expectHead: heads[i]! })).toMatchObject({
        ok: true,
        errors: [],
      });
      expect(verifyInclusionProof(doc, { ...trust, witnessKeys: [WITNESS_KEY.publicKey] }).ok).toBe(
        true,
      );
    }
    expect(indexOfRun(heads, 'run_7')).toBe(7);
  });

  it('refuses a proof for another record, an edited head, index, proof hash or size', () => {
    const doc = inclusionDoc(4);
    expect(codes(verifyInclusionProof(doc, { ...trust, expectHead: heads[5]! }))).toEqual([
      'PROOF_HEAD_MISMATCH',
    ]);
    const editedHead = { ...doc, head: { ...doc.head, content_digest: heads[5]!.content_digest } };
    expect(codes(verifyInclusionProof(editedHead, trust))).toEqual(['PROOF_ROOT_MISMATCH']);
    expect(codes(verifyInclusionProof({ ...doc, leaf_index: 5 }, trust))).toEqual([
      'PROOF_ROOT_MISMATCH',
    ]);
    const proof = [...doc.proof];
    proof[1] = proof[1]!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(codes(verifyInclusionProof({ ...doc, proof }, trust))).toEqual(['PROOF_ROOT_MISMATCH']);
    expect(codes(verifyInclusionProof({ ...doc, tree_size: 12 }, trust))).toEqual([
      'PROOF_SIZE_MISMATCH',
    ]);
    expect(codes(verifyInclusionProof({ ...doc, proof: doc.proof.slice(1) }, trust))).toEqual([
      'PROOF_WRONG_LENGTH',
    ]);
    expect(codes(verifyInclusionProof({ ...doc, proof: ['ZZ'] }, trust))).toEqual([
      'PROOF_DOCUMENT_MALFORMED',
    ]);
    expect(codes(verifyInclusionProof({ ...doc, $schema: 'x' }, trust))).toEqual([
      'PROOF_DOCUMENT_MALFORMED',
    ]);
    expect(codes(verifyInclusionProof(null, trust))).toEqual(['PROOF_DOCUMENT_MALFORMED']);
    expect(codes(verifyInclusionProof(doc, { logKey: OTHER_KEY.publicKey }))).toEqual([
      'CHECKPOINT_NOT_SIGNED_BY_LOG',
    ]);
  });
});

describe('consistency proof documents', () => {
  it('proves every older checkpoint is a prefix of the newer one', () => {
    for (let size1 = 1; size1 <= heads.length; size1++) {
      const doc = consistencyProofDocument({
        oldCheckpoint: checkpointAt(size1, false),
        newCheckpoint: checkpointAt(heads.length),
        proof: proveConsistency(heads, size1),
      });
      expect(
        verifyConsistencyProof(doc, { ...trust, witnessKeys: [WITNESS_KEY.publicKey] }),
      ).toMatchObject({ ok: true });
    }
  });

  it('refuses a log that rewrote a logged head', () => {
    const old = checkpointAt(6, false);
    const rewritten = heads.map((h, i) => (i === 2 ? headOf(99) : h));
    const { root } = treeHeadOf(rewritten);
    const forkedCheckpoint = signCheckpoint(
      { origin: LOG_ORIGIN, size: rewritten.length, root, extensions: [] },
      LOG_KEY.privateKey,
    );
    const doc = consistencyProofDocument({
      oldCheckpoint: old,
      newCheckpoint: forkedCheckpoint,
      proof: proveConsistency(rewritten, 6),
    });
    expect(codes(verifyConsistencyProof(doc, trust))).toEqual(['PROOF_ROOT_MISMATCH']);
  });

  it('refuses checkpoints of different logs and an old checkpoint under another key', () => {
    const { root } = treeHeadOf(heads);
    const other = signCheckpoint(
      { origin: 'other.test/log', size: heads.length, root, extensions: [] },
      LOG_KEY.privateKey,
    );
    const doc = consistencyProofDocument({
      oldCheckpoint: checkpointAt(3),
      newCheckpoint: other,
      proof: proveConsistency(heads, 3),
    });
    expect(codes(verifyConsistencyProof(doc, trust))).toEqual(['PROOF_ORIGIN_MISMATCH']);
    const foreign = signCheckpoint(
      { origin: LOG_ORIGIN, size: 3, root: treeHeadOf(heads, 3).root, extensions: [] },
      OTHER_KEY.privateKey,
    );
    const doc2 = consistencyProofDocument({
      oldCheckpoint: foreign,
      newCheckpoint: checkpointAt(13),
      proof: proveConsistency(heads, 3),
    });
    expect(codes(verifyConsistencyProof(doc2, trust))).toEqual(['CHECKPOINT_NOT_SIGNED_BY_LOG']);
  });
});
