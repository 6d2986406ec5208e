// Output paths are checked before a command does its work: `runback record --out
// missing/dir/run.json` must fail before the program runs, not after, with the flag named.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { usageError } from './errors.js';

/** The folder `path` would be written into must exist and be a directory. */
export async function assertOutputFolder(flag: string, path: string): Promise<void> {
  const folder = dirname(resolve(path));
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(folder)).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    throw usageError(
      'USAGE_BAD_OUT',
      `expected ${flag} ${path} to be in an existing folder, got no folder ${folder}`,
    );
  }
  let target;
  try {
    target = await stat(path);
  } catch {
    return; // a new file
  }
  if (target.isDirectory()) {
    throw usageError('USAGE_BAD_OUT', `expected ${flag} ${path} to be a file, got a directory`);
  }
}
