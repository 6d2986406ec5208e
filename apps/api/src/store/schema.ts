// Table types of the one schema both databases share (migrations.ts creates it).

export interface ProjectsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  /** Lowercase hex SHA-256 of the whole bearer token; the token itself is never stored. */
  token_hash: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface RunsTable {
  id: string;
  project_id: string;
  name: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  event_count: number;
  next_seq: number;
  /** The event chain's head h_n (docs/spec.md §3), advanced in each append transaction. */
  head_hash: string;
  /** 1 once the run is finished, sealed and signed; appends are refused from then on. */
  sealed: number;
  /** The sealed manifest, JSON text. */
  manifest: string | null;
  /** The record's `run` summary, JSON text. */
  summary: string | null;
}

export interface EventsTable {
  run_id: string;
  /** Index in the record's `events` array: the order the chain commits to. */
  position: number;
  seq: number;
  type: string;
  /** The event with its `_hash`, as canonical JSON text (docs/spec.md §2, §7). */
  body: string;
}

export interface BatchesTable {
  run_id: string;
  idempotency_key: string;
  /** SHA-256 of the batch body, so a reused key with a different batch is refused. */
  request_hash: string;
  /** The first answer, JSON text, given again to a retry. */
  response: string;
  created_at: string;
}

/** One leaf of the transparency log (docs/spec.md §5: a sealed run's record head). */
export interface LogLeavesTable {
  /** The leaf's position in the Merkle tree: 0, 1, 2, … without gaps. */
  leaf_index: number;
  run_id: string;
  content_digest: string;
  cassette_digest: string;
  /** Lowercase hex of the RFC 9162 leaf hash, SHA-256(0x00 || canonical head). */
  leaf_hash: string;
  logged_at: string;
}

/** The signed checkpoint (C2SP signed note) of each tree size the log has had. */
export interface LogCheckpointsTable {
  tree_size: number;
  /** Lowercase hex of the tree's root hash. */
  root_hash: string;
  /** The signed note text. */
  note: string;
  created_at: string;
}

export interface Database {
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  runs: RunsTable;
  events: EventsTable;
  batches: BatchesTable;
  log_leaves: LogLeavesTable;
  log_checkpoints: LogCheckpointsTable;
}
