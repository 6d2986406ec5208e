// The name of the program a command line runs: `node agent.js --flag` runs agent.js, not node.
// `runback record` names a run after it, and `runback inspect` shows it for a recorded program.

// Interpreters and runners whose first non-option argument is the program (a script, or for
// `deno run` / `bun run` the script after the subcommand).
const INTERPRETERS = new Set([
  'node',
  'nodejs',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
  'sh',
  'bash',
  'zsh',
]);
const SUBCOMMANDS = new Set(['run']);
// Options of those interpreters that take the next argument as their value.
const OPTIONS_WITH_VALUE = new Set(['--import', '--require', '-r', '--loader', '--conditions']);

/** The last path segment, and for Windows' `node.exe` also without `.exe`. */
export function baseName(path: string): string {
  const last =
    path
      .split(/[\\/]/)
      .filter((p) => p !== '')
      .at(-1) ?? path;
  return last.replace(/\.exe$/i, '');
}

/**
 * The program's name: the script an interpreter runs (`node agent.js` → `agent.js`), else the
 * command's base name. An inline program (`node -e …`, `sh -c …`) is named after the command.
 */
export function programName(argv: readonly string[]): string | null {
  const [command, ...args] = argv;
  if (command === undefined || command === '') return null;
  const name = baseName(command);
  if (!INTERPRETERS.has(name.toLowerCase().replace(/[\d.]+$/, '') || name)) return name;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-e' || arg === '-c' || arg === '--eval' || arg === '-p' || arg === '--print')
      return name;
    if (OPTIONS_WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    if (SUBCOMMANDS.has(arg) && (name === 'deno' || name === 'bun')) continue;
    return baseName(arg);
  }
  return name;
}
