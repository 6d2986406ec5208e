// runback-verify bound to this process: arguments, I/O, exit status. Both executables named
// runback-verify (this package's and @runback/verify's) call it.
import { EXIT } from './io.js';
import { nodeIO } from './node-io.js';
import { runVerifyCommand } from './verify-command.js';

/** Runs `runback-verify` with this process's arguments and sets its exit status. */
export async function runVerifyBin(program = 'runback-verify'): Promise<void> {
  // A reader that stops early (`| head`) closes the pipe: that is not a failure of the command.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    throw err;
  });
  try {
    process.exitCode = await runVerifyCommand(process.argv.slice(2), nodeIO(), program);
  } catch (err) {
    process.stderr.write(
      `${program}: unexpected failure: ${(err as Error)?.stack ?? String(err)}\n`,
    );
    process.exitCode = EXIT.internal;
  }
}
