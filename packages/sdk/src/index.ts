// @runback/sdk: record AI agent runs as sealed, signed, replayable runback records. The root is
// the recording and replay API; journals, whole-program recording and file writes live on the
// `/journal`, `/process` and `/fs` subpaths, the diff in `@runback/diff`.

/** Recording a run. */
export {
  Run,
  record,
  startRun,
  RUN_SPAN_ID,
  type Recorded,
  type RunEnd,
  type RunResult,
} from './recorder/recorder.js';
export type { RunOptions } from './recorder/options.js';

/** Model calls, tool calls and reasoning notes inside a run. */
export { tool, wrapTools, type ToolCallOptions, type ToolMap } from './hooks/spans/tool.js';
export {
  beginLlmCall,
  llmCall,
  type LlmCallInit,
  type LlmCallOutcome,
  type LlmCallSpan,
  type RecordedLlmCall,
} from './hooks/spans/llm.js';
export { reasoning } from './hooks/spans/reasoning.js';
export { artifact, type ArtifactRef } from './hooks/spans/artifact.js';

/** Environment capture. */
export type { CaptureEnvOptions } from './session/capture-settings.js';

/** Redaction. */
export { REDACTED, Redactor, type Redaction, type RedactionOptions } from './redact/index.js';

/** Record layout. */
export type { Manifest, RunSummary } from './session/record-file.js';

/** Event shapes. */
export type {
  Actor,
  EnvEvent,
  EnvKind,
  EventBase,
  EventError,
  KeyProjectionSpec,
  LlmEvent,
  LlmRequest,
  LlmResponse,
  LlmToolCall,
  LlmUsage,
  ModelRef,
  ReasoningEvent,
  RecordedEvent,
  RunEvent,
  ToolEvent,
} from './core/events.js';

/** Streaming a run to the audit service. */
export {
  HttpSink,
  httpSinkFromEnv,
  type HttpSinkOptions,
  type HttpSinkResult,
  type RunSink,
} from './sinks/http-sink.js';

/** Errors. */
export { RunbackError, type RunbackErrorCode } from './core/errors.js';

/** Replay: re-execute a recorded run and prove it reproduces. */
export {
  replay,
  type ReplayInput,
  type ReplayOptions,
  type ReplayOutcome,
  type ReplayReport,
  type RunFacts,
} from './recorder/replay.js';
export {
  REPLAY_MODES,
  ReplayMissError,
  type LiveCall,
  type ReplayMiss,
  type ReplayMode,
} from './session/replay-source.js';
export { REPLAY_TOOLS, type ReplayTools } from './session/replay-tools.js';
export type { Divergence } from './recorder/compare.js';
export { PLACEHOLDER_CREDENTIAL } from './session/placeholder-credentials.js';
