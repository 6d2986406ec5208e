// @runback/sdk: record AI agent runs as sealed, signed, replayable runback records.

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
} from './hooks/spans/llm.js';
export { reasoning } from './hooks/spans/reasoning.js';

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

/** Files. */
export {
  atomicWrite,
  type AtomicWriteData,
  type AtomicWriteOptions,
} from './core/fs/atomic-write.js';
export { fileExists } from './core/fs/exists.js';

/** Errors. */
export { RunbackError, type RunbackErrorCode } from './core/errors.js';

/** Journals: crash safety, recovery, and runs recorded across processes. */
export {
  sealJournal,
  type JournalRunEnd,
  type SealJournalOptions,
  type SealJournalReport,
} from './journal/seal.js';
export {
  beginJournalRun,
  preloadSpecifier,
  type JournalRun,
  type JournalRunInit,
} from './journal/begin.js';
export { journalPathFor, type JournalHeader } from './journal/format.js';

/** Recording a whole program (`runback record`). */
export {
  recordCommand,
  type RecordCommandOptions,
  type RecordCommandResult,
} from './process/record-command.js';
export type { CapturedOutput } from './process/output-capture.js';
export type { EnvironmentFingerprint } from './process/fingerprint.js';

/** Semantic diff of two records (`runback diff`). */
export {
  alignSteps,
  diffJson,
  diffRecords,
  stepsOf,
  type Aligned,
  type Alignable,
  type JsonChange,
  type JsonDiffOptions,
  type ModelFigures,
  type ModelTotals,
  type RecordDiff,
  type Step,
  type StepChange,
} from './diff/index.js';

/** Replay: re-execute a recorded run and prove it reproduces. */
export {
  replay,
  compareRuns,
  loadRecordForReplay,
  captureFor,
  type ReplayInput,
  type ReplayOptions,
  type ReplayOutcome,
  type ReplayReport,
  type RunFacts,
} from './recorder/replay.js';
export {
  REPLAY_MODES,
  ReplayMissError,
  ReplaySource,
  type LiveCall,
  type ReplayMiss,
  type ReplayMode,
  type Served,
} from './session/replay-source.js';
export { RecordedCassette, type RecordedCall } from './session/cassette.js';
export { firstDivergence, sameOutput, type Divergence } from './recorder/compare.js';
export { endReplayed, type RecordedLlmCall } from './hooks/spans/llm.js';
