// @runback/otlp: runback records and OpenTelemetry traces, both ways. Pure conversions, no I/O.
export { exportOtlp, type ExportOptions, type OtlpExport } from './export/export-otlp.js';
export { OtlpError, type OtlpErrorCode } from './errors.js';
export { importOtlp, type ImportOptions, type OtlpImport } from './import/import-otlp.js';
