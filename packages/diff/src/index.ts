// @runback/diff: what changed between two runback records. Browser-safe: no I/O, no node:*.
export { diffJson, type JsonChange, type JsonDiffOptions } from './json-diff.js';
export { alignSteps, pairGap, type Aligned, type Alignable, type AlignOptions } from './align.js';
export { callName, stepsOf, withoutStack, type Step } from './steps.js';
export {
  diffRecords,
  type ModelFigures,
  type ModelTotals,
  type RecordDiff,
  type StepChange,
} from './record-diff.js';
export { preview, previewPair } from './preview.js';
export { diffText, type TextDiff, type TextDiffOptions, type TextSegment } from './text-diff.js';
