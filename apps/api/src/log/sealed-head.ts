// Logging a sealed run: its head comes from the manifest the service sealed and signed.
import { recordHeadOf } from '@runback/tlog';
import type { RunRow } from '../store/types.js';
import type { LogEntry, TransparencyLog } from './transparency-log.js';

/**
 * Appends a sealed run's head to the log, once (later calls find it there). Every export
 * goes through here, so no sealed record leaves the service unlogged.
 */
export async function logSealedRun(log: TransparencyLog, run: RunRow): Promise<LogEntry> {
  if (run.manifest === null) throw new TypeError(`expected run ${run.id} to be sealed`);
  return log.append(recordHeadOf({ manifest: JSON.parse(run.manifest) as unknown }));
}
