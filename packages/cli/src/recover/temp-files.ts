// Temporary files of `runback recover`: the record is sealed beside OUT under a name that holds
// the writer's pid, so that a later run can recognise one left by a recover that was killed
// (its pid no longer alive) and remove it, and never touches one a running recover still uses.
import { randomBytes } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A fresh temporary path beside `out`: `.OUT.recover-PID-RANDOM.tmp`. */
export function tempPathFor(out: string): string {
  return join(
    dirname(out),
    `.${basename(out)}.recover-${process.pid}-${randomBytes(6).toString('hex')}.tmp`,
  );
}

/** Whether a process with this pid exists (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the temporary files of `out` whose writer is gone; returns their paths. */
export async function removeStaleTemps(out: string): Promise<string[]> {
  const pattern = new RegExp(`^\\.${escape(basename(out))}\\.recover-(\\d+)-[0-9a-f]{12}\\.tmp$`);
  let names: string[];
  try {
    names = await readdir(dirname(out));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || processAlive(pid)) continue;
    const path = join(dirname(out), name);
    await unlink(path).catch(() => undefined);
    removed.push(path);
  }
  return removed;
}
