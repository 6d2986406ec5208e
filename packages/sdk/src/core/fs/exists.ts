import { lstat } from 'node:fs/promises';

/** Whether anything (a file, a directory, a dangling symlink) exists at `path`. */
export async function fileExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw err;
  }
}
