// @runback/sdk/journal: crash safety, recovery, and runs recorded across processes.
export {
  sealJournal,
  type JournalRunEnd,
  type SealJournalOptions,
  type SealJournalReport,
} from './seal.js';
export {
  beginJournalRun,
  preloadSpecifier,
  type JournalRun,
  type JournalRunInit,
} from './begin.js';
export { journalPathFor, type JournalHeader } from './format.js';
