// Builds the tar archive of a bundle with tar-stream: regular file entries only, in path
// order, every one with mode 0644, owner and group 0 (no names) and the same mtime, so the
// same files always give the same bytes. Directories are implied by the paths.
import tar from 'tar-stream';
import { concatBytes } from './bytes.js';
import { comparePaths } from './sums.js';

/** One file to archive. */
export interface TarFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** The tar bytes of `files`, sorted by path, all stamped with `mtime`. */
export async function buildTar(files: readonly TarFile[], mtime: Date): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Uint8Array[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk);
  })();
  for (const file of [...files].sort((a, b) => comparePaths(a.path, b.path))) {
    await new Promise<void>((resolve, reject) => {
      pack.entry(
        {
          name: file.path,
          type: 'file',
          mode: 0o644,
          uid: 0,
          gid: 0,
          uname: '',
          gname: '',
          mtime,
          size: file.bytes.length,
        },
        Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        (err) => (err ? reject(err) : resolve()),
      );
    });
  }
  pack.finalize();
  await done;
  return concatBytes(chunks);
}
