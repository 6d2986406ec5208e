// Temporary files a killed process leaves behind. Each carries its writer's pid in its name, so a
// later run can tell one whose writer is gone (and remove it) from one a running process still
// uses (left alone).
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Whether a process with this pid exists (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the entries of `dir` whose name matches `pattern` (its first group: the writer's pid)
 * and whose writer is no longer running. Returns the removed paths; never throws.
 */
export async function removeStaleTemps(dir: string, pattern: RegExp): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processAlive(pid))
      continue;
    const path = join(dir, name);
    try {
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Another run removed it first, or it is not ours to remove.
    }
  }
  return removed;
}

/** Scratch journals of `runback record` in the temporary directory: `runback-PID-HEX.journal`. */
export const SCRATCH_JOURNAL = /^runback-(\d+)-[0-9a-f]{12}\.journal$/;
/** Private replay copies: `runback-replay-PID-XXXXXX` directories. */
export const REPLAY_COPY_DIR = /^runback-replay-(\d+)-[A-Za-z0-9]{6}$/;
/** atomicWrite's temporary files beside a record: `.NAME.PID.HEX.tmp`. */
export function atomicTempOf(name: string): RegExp {
  return new RegExp(
    `^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.[0-9a-f]{12}\\.tmp$`,
  );
}
