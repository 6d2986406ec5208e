// The module `runback record` and `runback replay` load into a Node program with
// NODE_OPTIONS=--import (docs/guides/recording.md, docs/guides/replay.md). With no code change:
// - recording: the program's model calls (through fetch), fetch, clock, randomness and UUIDs
//   are recorded into the run's journal, continuing the chain the parent began;
// - replay (RUNBACK_REPLAY=record.json): the same calls are answered from the record, and each
//   provider the record used gets a placeholder API key where the environment has none.
// Without the variables it does nothing.
import { readFileSync } from 'node:fs';
import { installCapture } from '../hooks/env/install.js';
import { captureSettings, type CaptureEnvOptions } from '../session/capture-settings.js';
import { JournalWriter } from '../journal/writer.js';
import { Redactor } from '../redact/index.js';
import { checkRecordForReplay } from '../recorder/replay.js';
import { REPLAY_MODES, ReplaySource, type ReplayMode } from '../session/replay-source.js';
import { REPLAY_TOOLS, type ReplayTools } from '../session/replay-tools.js';
import { ActiveRun, type EventSink } from '../session/active-run.js';
import { setProcessReplaySource, setProcessScope } from '../session/context.js';
import { takeChildRecording, takeReplayRequest, takeWatchParent } from '../journal/child-env.js';
import { PLACEHOLDER_CREDENTIAL, placeholderNames } from '../session/placeholder-credentials.js';

const child = takeChildRecording(process.env);
const replayRequest = takeReplayRequest(process.env);

// The program dies with `runback record`: its IPC channel closes when the parent dies, however it
// died. Unreferenced, so the channel never keeps the program alive by itself; the variables Node
// uses to find the channel are removed so that a program's own children do not inherit it.
if (takeWatchParent(process.env) && process.channel !== undefined) {
  delete process.env['NODE_CHANNEL_FD'];
  delete process.env['NODE_CHANNEL_SERIALIZATION_MODE'];
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}

let source: ReplaySource | undefined;
let replayCapture: CaptureEnvOptions | undefined;
if (replayRequest !== undefined) {
  const mode = replayRequest.mode as ReplayMode;
  if (!REPLAY_MODES.includes(mode)) {
    fail(`RUNBACK_REPLAY_MODE: expected ${REPLAY_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  const tools = replayRequest.tools as ReplayTools;
  if (!REPLAY_TOOLS.includes(tools)) {
    fail(`RUNBACK_REPLAY_TOOLS: expected ${REPLAY_TOOLS.join(', ')}, got ${JSON.stringify(tools)}`);
  }
  let loaded: ReturnType<typeof checkRecordForReplay> | undefined;
  try {
    // Read once; the calls are served from these very bytes (parsed when served).
    loaded = checkRecordForReplay(readFileSync(replayRequest.path));
  } catch (err) {
    fail(
      `cannot replay ${replayRequest.path}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (loaded !== undefined) {
    source = new ReplaySource(loaded.record.cassette(), mode, tools);
    replayCapture = loaded.record.capture;
    setProcessReplaySource(source);
    // Model clients refuse to start without a key; every call is answered from the record, so a
    // placeholder stands in where the environment has none (never sent: hooks/env refuses it).
    for (const name of placeholderNames(loaded.record.providers, process.env)) {
      process.env[name] = PLACEHOLDER_CREDENTIAL;
    }
  }
}

if (child !== undefined || source !== undefined) {
  let sink: EventSink = { write: () => undefined };
  let close = () => undefined as void;
  if (child !== undefined) {
    const writer = JournalWriter.openForAppend(child.journal, {
      sync: child.sync,
      macKey: child.macKey === undefined ? undefined : Buffer.from(child.macKey, 'hex'),
    });
    sink = { write: (text) => writer.append(text) };
    close = () => writer.close();
  }
  const run = new ActiveRun({
    runId: child?.runId ?? 'run_replay',
    rootSpanId: child?.parentSpan ?? 'run',
    sink,
    redactor: new Redactor(),
    capture: captureSettings(replayCapture ?? (child?.capture as boolean | CaptureEnvOptions)),
    replay: source,
    ...(child === undefined
      ? {}
      : { firstSeq: child.firstSeq, chainHead: child.chainHead, chainCount: child.chainCount }),
  });
  setProcessScope({ run, spanId: child?.parentSpan ?? 'run', kind: 'run' });
  installCapture();
  process.once('exit', () => {
    run.close();
    close();
  });
}

function fail(message: string): never {
  process.stderr.write(`runback: ${message}\n`);
  process.exit(70);
}
