// The recorded program's lifetime is tied to `runback record`: killing only the parent (SIGKILL,
// which it cannot catch) ends the program too, so it cannot keep running while `runback
// recover` seals a partial run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI, tempDir } from './support.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('runback record: the program dies with its parent', () => {
  it('SIGKILL of runback record alone ends the recorded Node program; recover then seals the run', async () => {
    const dir = tempDir();
    const out = join(dir, 'run.json');
    const pidFile = join(dir, 'program.pid');
    const script = join(dir, 'forever.mjs');
    writeFileSync(
      script,
      `import { writeFileSync } from 'node:fs';
       Date.now();
       writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
       console.log('ready');
       setInterval(() => {}, 1000);`,
    );
    const parent = spawn(
      process.execPath,
      [BUILT_CLI, 'record', '--out', out, '--journal', '--', process.execPath, script],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let programPid = 0;
    try {
      await new Promise<void>((resolve) =>
        parent.stdout.on('data', (c: Buffer) => c.toString().includes('ready') && resolve()),
      );
      programPid = Number(readFileSync(pidFile, 'utf8'));
      expect(alive(programPid)).toBe(true);
      parent.kill('SIGKILL'); // the parent only, not its process group
      await new Promise((resolve) => parent.once('close', resolve));
      expect(await until(() => !alive(programPid), 10_000)).toBe(true);
    } finally {
      // Whatever happened, leave nothing running.
      try {
        process.kill(-(parent.pid as number), 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
    expect(existsSync(`${out}.journal`)).toBe(true);
    const r = spawnSync(process.execPath, [BUILT_CLI, 'recover', `${out}.journal`, '--json'], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ interrupted: true });
  });
});
