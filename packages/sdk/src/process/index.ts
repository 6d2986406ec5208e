// @runback/sdk/process: recording and replaying a whole program (`runback record`, `runback
// replay`): the program runs as a child process with the preload, and its run is compared with
// the record it replays.
export {
  recordCommand,
  type RecordCommandOptions,
  type RecordCommandResult,
} from './record-command.js';
export type { CapturedOutput } from './output-capture.js';
export type { EnvironmentFingerprint } from './fingerprint.js';
export { compareRuns, loadRecordForReplay } from '../recorder/replay.js';
export {
  PLACEHOLDER_CREDENTIAL,
  PROVIDER_KEY_VARIABLES,
  placeholderNames,
  recordedProviders,
} from '../session/placeholder-credentials.js';
