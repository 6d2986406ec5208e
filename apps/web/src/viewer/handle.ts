// What the views need of a verified record: the worker that holds it and its summary.
import type { VerifierWorker } from '../lib/worker-client.js';
import type { RecordSummary } from '../worker/record-index.js';

export interface RecordHandle {
  readonly worker: VerifierWorker;
  readonly summary: RecordSummary;
  /** Changes whenever the record or its verify result changes. */
  readonly version: number;
}
