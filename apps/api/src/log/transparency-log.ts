// The service's transparency log: the RFC 6962 / RFC 9162 Merkle log of @runback/tlog kept in
// the database. Each sealed run's head (run_id, content_digest, cassette_digest) is appended
// once; each append writes the new tree size's checkpoint (C2SP tlog-checkpoint), signed with
// the service's Ed25519 key under the log's origin. Proofs are built from the stored leaves
// and checked with @runback/tlog's own verifiers before they leave the service.
import { publicKeyFromPrivateKey } from '@runback/sign';
import {
  EMPTY_ROOT,
  checkpointOfNote,
  consistencyProofDocument,
  inclusionProofDocument,
  parseRecordHead,
  readCheckpoint,
  recordLeafHash,
  signCheckpoint,
  verifyConsistencyProof,
  verifyInclusionProof,
  type ConsistencyProofDocument,
  type InclusionProofDocument,
  type RecordHead,
} from '@runback/tlog';
import { ApiError } from '../errors.js';
import type { LogCheckpointRow, LogLeafRow, Store } from '../store/types.js';
import { toHex } from './hex.js';
import { LeafCache } from './leaf-cache.js';

/** The origin (the log's name in its checkpoints) when RUNBACK_LOG_ORIGIN does not set one. */
export const DEFAULT_LOG_ORIGIN = 'localhost/runback-audit-log';

const ORIGIN = /^[^\s+]{1,200}$/u;

/** The answer to an append: where the head is, and whether this call put it there. */
export interface LogEntry {
  readonly leafIndex: number;
  readonly appended: boolean;
}

/** A checkpoint as the API shows it. */
export interface CheckpointView {
  readonly origin: string;
  readonly size: number;
  readonly root: string;
  readonly note: string;
}

function internal(message: string): ApiError {
  return new ApiError(500, 'INTERNAL', message);
}

function sameHead(row: LogLeafRow, head: RecordHead): boolean {
  return row.content_digest === head.content_digest && row.cassette_digest === head.cassette_digest;
}

export class TransparencyLog {
  readonly origin: string;
  readonly publicKey: Uint8Array;
  readonly #store: Store;
  readonly #privateKey: Uint8Array;
  readonly #now: () => Date;
  readonly #cache = new LeafCache();

  /** @throws {TypeError} for an origin that cannot name a note key (spaces, "+", empty). */
  constructor(store: Store, privateKey: Uint8Array, origin: string, now: () => Date) {
    if (!ORIGIN.test(origin)) {
      throw new TypeError(
        `RUNBACK_LOG_ORIGIN: expected 1 to 200 characters without spaces or "+", got ${JSON.stringify(origin)}`,
      );
    }
    this.#store = store;
    this.#privateKey = privateKey;
    this.publicKey = publicKeyFromPrivateKey(privateKey);
    this.origin = origin;
    this.#now = now;
  }

  /**
   * Appends a sealed run's head, once: a head already logged is left where it is. Appends
   * are serialised across processes by the store's log lock; the leaf index and tree size
   * are each a primary key, so two appends can never take the same place.
   */
  async append(value: RecordHead): Promise<LogEntry> {
    const head = parseRecordHead(value);
    const known = await this.#store.logLeafOf(head.run_id);
    if (known !== undefined) return this.#same(known, head);
    const leaf = recordLeafHash(head);
    const at = this.#now().toISOString();
    const outcome = await this.#store.withLogLocked(async (tx) => {
      const again = await tx.logLeafOf(head.run_id);
      if (again !== undefined) return this.#same(again, head);
      const size = await tx.logSize();
      const latest = await tx.logCheckpoint();
      if ((latest?.tree_size ?? 0) !== size) {
        throw internal(
          `expected the latest log checkpoint to be of the ${size} stored leaves, got size ${latest?.tree_size ?? 0}`,
        );
      }
      if (latest !== undefined) this.#expectOrigin(latest.note);
      await this.#cache.fill(tx, size);
      // The tree holds committed leaves only, and under the lock `size` counts them all.
      if (this.#cache.tree.size !== size) {
        throw internal(
          `expected the log tree to hold ${size} leaves, got ${this.#cache.tree.size}`,
        );
      }
      // The new checkpoint must extend the last one signed: the stored leaves rebuild its root.
      if (latest !== undefined && toHex(this.#cache.tree.root(size)) !== latest.root_hash) {
        throw internal(
          `expected the stored leaves to rebuild the checkpoint of size ${size}, got another root`,
        );
      }
      const root = this.#cache.tree.rootWith(leaf);
      const note = signCheckpoint(
        { origin: this.origin, size: size + 1, root, extensions: [] },
        this.#privateKey,
      );
      await tx.insertLeaf({
        leaf_index: size,
        run_id: head.run_id,
        content_digest: head.content_digest,
        cassette_digest: head.cassette_digest,
        leaf_hash: toHex(leaf),
        logged_at: at,
      });
      await tx.insertCheckpoint({
        tree_size: size + 1,
        root_hash: toHex(root),
        note,
        created_at: at,
      });
      return { leafIndex: size, appended: true };
    });
    if (outcome.appended) this.#cache.committed(outcome.leafIndex, leaf);
    return outcome;
  }

  #same(row: LogLeafRow, head: RecordHead): LogEntry {
    if (!sameHead(row, head)) {
      throw internal(
        `expected run ${head.run_id}'s logged head to be its sealed head, got other digests in leaf ${row.leaf_index}`,
      );
    }
    return { leafIndex: Number(row.leaf_index), appended: false };
  }

  #expectOrigin(note: string): void {
    const stated = checkpointOfNote(note);
    if (!stated.ok) throw internal(`expected a stored checkpoint note, got: ${stated.message}`);
    if (stated.checkpoint.origin !== this.origin) {
      throw internal(
        `expected RUNBACK_LOG_ORIGIN to be the log's origin ${JSON.stringify(stated.checkpoint.origin)}, got ${JSON.stringify(this.origin)}`,
      );
    }
  }

  /** The latest signed checkpoint (size 0 with the empty root before the first append). */
  async checkpoint(): Promise<CheckpointView> {
    const latest = await this.#store.logCheckpoint();
    if (latest === undefined) {
      const note = signCheckpoint(
        { origin: this.origin, size: 0, root: EMPTY_ROOT, extensions: [] },
        this.#privateKey,
      );
      return { origin: this.origin, size: 0, root: toHex(EMPTY_ROOT), note };
    }
    const note = await this.#noteOf(latest);
    return { origin: this.origin, size: latest.tree_size, root: latest.root_hash, note };
  }

  /**
   * The checkpoint note of a stored tree head under the current key: the stored note, or —
   * when an earlier service key signed it (the key was rotated since) — the same tree head
   * signed again with the current key, once the stored leaves rebuild its root. So every
   * checkpoint the service hands out verifies with the key it publishes now.
   */
  async #noteOf(row: LogCheckpointRow): Promise<string> {
    this.#expectOrigin(row.note);
    if (readCheckpoint(row.note, { logKey: this.publicKey }).ok) return row.note;
    await this.#cache.fill(this.#store, row.tree_size);
    const root = this.#cache.tree.root(row.tree_size);
    if (toHex(root) !== row.root_hash) {
      throw internal(
        `expected the stored leaves to rebuild the checkpoint of size ${row.tree_size}, got another root`,
      );
    }
    return signCheckpoint(
      { origin: this.origin, size: row.tree_size, root, extensions: [] },
      this.#privateKey,
    );
  }

  /** The leaf of a run, if it is logged. */
  leafOf(runId: string): Promise<LogLeafRow | undefined> {
    return this.#store.logLeafOf(runId);
  }

  /**
   * The inclusion proof of a logged leaf against the checkpoint of `treeSize` (default: the
   * latest), as the document `runback verify --proof` reads.
   */
  async inclusion(leaf: LogLeafRow, treeSize?: number): Promise<InclusionProofDocument> {
    const index = Number(leaf.leaf_index);
    const cp = await this.#checkpointAt('size', treeSize, index + 1);
    await this.#cache.fill(this.#store, cp.tree_size);
    const head: RecordHead = {
      run_id: leaf.run_id,
      content_digest: leaf.content_digest,
      cassette_digest: leaf.cassette_digest,
    };
    const doc = inclusionProofDocument({
      head,
      leafIndex: index,
      treeSize: cp.tree_size,
      proof: this.#cache.tree.inclusionProof(index, cp.tree_size),
      checkpoint: cp.note,
    });
    const check = verifyInclusionProof(doc, { logKey: this.publicKey, expectHead: head });
    if (!check.ok) {
      throw internal(
        `expected the inclusion proof of ${leaf.run_id} to verify, got ${check.errors[0]?.code ?? 'a failure'}`,
      );
    }
    return doc;
  }

  /** The consistency proof from the checkpoint of `from` to that of `to` (default: latest). */
  async consistency(from: number, to?: number): Promise<ConsistencyProofDocument> {
    const newer = await this.#checkpointAt('to', to, 1);
    const older = await this.#checkpointAt('from', from, 1, newer.tree_size);
    await this.#cache.fill(this.#store, newer.tree_size);
    const doc = consistencyProofDocument({
      oldCheckpoint: older.note,
      newCheckpoint: newer.note,
      proof: this.#cache.tree.consistencyProof(older.tree_size, newer.tree_size),
    });
    const check = verifyConsistencyProof(doc, { logKey: this.publicKey });
    if (!check.ok) {
      throw internal(
        `expected the consistency proof from ${from} to ${newer.tree_size} to verify, got ${check.errors[0]?.code ?? 'a failure'}`,
      );
    }
    return doc;
  }

  /**
   * The stored checkpoint of tree size `size` (default: the latest), which must lie from
   * `least` to `most` (default: the latest size); `member` names the query parameter.
   */
  async #checkpointAt(
    member: string,
    size: number | undefined,
    least: number,
    most?: number,
  ): Promise<LogCheckpointRow> {
    const latest = await this.#store.logCheckpoint();
    const top = Math.min(most ?? Infinity, latest?.tree_size ?? 0);
    const want = size ?? top;
    if (want < least || want > top) {
      throw new ApiError(
        400,
        'TREE_SIZE_OUT_OF_RANGE',
        top < least
          ? `member ${member}: expected the log to hold at least ${least} leaves, got ${top}`
          : `member ${member}: expected a tree size from ${least} to ${top}, got ${want}`,
      );
    }
    const row = want === latest?.tree_size ? latest : await this.#store.logCheckpoint(want);
    if (row === undefined) throw internal(`expected a stored checkpoint of size ${want}, got none`);
    return { ...row, note: await this.#noteOf(row) };
  }
}
