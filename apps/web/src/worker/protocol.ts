// Messages between the page and the verification worker. The worker owns the record: the page
// asks for the rows it shows, so a 100k-event record never crosses the thread boundary whole.
import type { RecordDiff } from '@runback/diff';
import type { Verdict, VerifyResult } from '@runback/verify';
import type { RecordSummary, RowList, RowOf } from './record-index.js';

/** Whom the reader trusts: PEM texts of pinned and revoked Ed25519 keys, and an HMAC key. */
export interface Trust {
  readonly pinned: readonly string[];
  readonly revoked: readonly string[];
  readonly hmacKey?: string;
}

/** Where a record comes from. */
export type Source =
  | { readonly kind: 'file'; readonly file: Blob; readonly name: string }
  | { readonly kind: 'text'; readonly text: string; readonly name: string }
  | { readonly kind: 'url'; readonly url: string };

export type Stage = 'read' | 'hash' | 'verify' | 'index';

export type Request =
  | { readonly type: 'verify'; readonly id: number; readonly source: Source; readonly trust: Trust }
  | { readonly type: 'reverify'; readonly id: number; readonly trust: Trust }
  | {
      readonly type: 'rows';
      readonly id: number;
      readonly list: RowList;
      readonly start: number;
      readonly end: number;
    }
  | { readonly type: 'event'; readonly id: number; readonly index: number }
  | {
      readonly type: 'diff';
      readonly id: number;
      readonly a: Source;
      readonly b: Source;
      readonly trust: Trust;
    };

/** One side of a diff: which record it is and whether it verifies. */
export interface DiffSide {
  readonly file: FileFacts;
  readonly verdict: Verdict;
  /** schema through cassette hold (docs/spec.md §5.7). */
  readonly intact: boolean;
  readonly runId: string;
  readonly name: string;
  readonly status: string;
  readonly events: number;
}

/** One file inside a bundle, and whether SHA256SUMS lists its digest. */
export interface BundleFile {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  /** ok: listed with this digest; mismatch: unlisted or another digest; self: SHA256SUMS. */
  readonly sums: 'ok' | 'mismatch' | 'self' | 'unchecked';
}

/** A verified evidence bundle: the result `runback verify BUNDLE --json` gives, and a listing. */
export interface BundleView {
  /** The verdict of the whole bundle (invalid on any bundle error, else the record's). */
  readonly verdict: Verdict;
  /** The top-level directory, once the archive's structure was accepted. */
  readonly root: string | null;
  /** Whether every bundle check passed (structure, artifacts, SHA256SUMS). */
  readonly accepted: boolean;
  readonly errors: readonly {
    readonly check: string;
    readonly code: string;
    readonly message: string;
  }[];
  readonly notes: readonly string[];
  readonly artifacts: readonly {
    readonly name: string;
    readonly bytes: number;
    readonly sha256: string;
    readonly ok: boolean;
  }[];
  readonly files: readonly BundleFile[];
  readonly sums: 'ok' | 'mismatch' | 'missing' | 'unchecked';
}

/** What the worker knows about the file it read. */
export interface FileFacts {
  readonly name: string;
  readonly bytes: number;
  /** Lowercase hex SHA-256 of the file's bytes, as read. */
  readonly sha256: string;
}

export type Response =
  | {
      readonly type: 'progress';
      readonly id: number;
      readonly stage: Stage;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly type: 'verified';
      readonly id: number;
      readonly file: FileFacts;
      /** The record's result; null for a bundle whose record could not be read. */
      readonly result: VerifyResult | null;
      /** Set when the file was an evidence bundle. */
      readonly bundle: BundleView | null;
      /** Null when the text is not strictly readable JSON: nothing to view. */
      readonly summary: RecordSummary | null;
      readonly ms: number;
    }
  | { readonly type: 'rows'; readonly id: number; readonly rows: readonly RowOf<RowList>[] }
  | { readonly type: 'event'; readonly id: number; readonly event: unknown }
  | {
      readonly type: 'diffed';
      readonly id: number;
      readonly a: DiffSide;
      readonly b: DiffSide;
      readonly diff: RecordDiff;
    }
  | {
      readonly type: 'failed';
      readonly id: number;
      readonly code: string;
      readonly message: string;
    };
