// What a run was asked and how it ended, as a reviewer reads it first: the run's input, its
// final output or error, the model's last answer, and for a program recorded by
// `runback record` the program (named after its script), its exit status and its output.
import { programName } from './program.js';
import { asObject as obj, int, str, type Json } from './read-json.js';

/** A program recorded by `runback record`: its command line and how it ended. */
export interface ProgramFacts {
  /** The script an interpreter ran (`node agent.js` → `agent.js`), else the command's base name. */
  readonly name: string | null;
  readonly argv: readonly string[];
  readonly cwd: string | null;
  readonly exit_code: number | null;
  readonly signal: string | null;
  /** The recorded text of standard output / error (possibly cut at the recording limit). */
  readonly stdout: string | null;
  readonly stderr: string | null;
  readonly stdout_bytes: number | null;
  readonly stderr_bytes: number | null;
}

export interface RunFacts {
  readonly input: unknown;
  readonly output: unknown;
  readonly error: unknown;
  /** The text of the last model response that has text. */
  readonly answer: string | null;
  readonly program: ProgramFacts | null;
}

/** Reads the run's facts from its `run` object, falling back to its run start / end events. */
export function runFacts(
  run: Json,
  start: Json | undefined,
  end: Json | undefined,
  events: readonly Json[],
): RunFacts {
  const input = pick(run, 'input') ?? pick(start, 'input') ?? null;
  const output = pick(run, 'output') ?? pick(end, 'output') ?? null;
  const error = pick(run, 'error') ?? pick(end, 'error') ?? null;
  return { input, output, error, answer: lastAnswer(events), program: programOf(input, output) };
}

/** A member that is present and not null. */
function pick(source: Json | undefined, key: string): unknown {
  const value = source?.[key];
  return value === null ? undefined : value;
}

function programOf(input: unknown, output: unknown): ProgramFacts | null {
  const argv = obj(input)?.['argv'];
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return null;
  const out = obj(output);
  const stream = (name: string) => obj(out?.[name]);
  return {
    name: programName(argv),
    argv,
    cwd: str(obj(input)?.['cwd']),
    exit_code: int(out?.['exit_code']),
    signal: str(out?.['signal']),
    stdout: str(stream('stdout')?.['text']),
    stderr: str(stream('stderr')?.['text']),
    stdout_bytes: int(stream('stdout')?.['bytes']),
    stderr_bytes: int(stream('stderr')?.['bytes']),
  };
}

function lastAnswer(events: readonly Json[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as Json;
    if (event['type'] !== 'llm') continue;
    const text = str(obj(event['response'])?.['text']);
    if (text !== null && text.trim() !== '') return text;
  }
  return null;
}
