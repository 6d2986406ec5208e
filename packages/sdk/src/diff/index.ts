export { diffJson, type JsonChange, type JsonDiffOptions } from '../core/json-diff.js';
export { alignSteps, type Aligned, type Alignable } from './align.js';
export { stepsOf, type Step } from './steps.js';
export {
  diffRecords,
  type ModelFigures,
  type ModelTotals,
  type RecordDiff,
  type StepChange,
} from './record-diff.js';
