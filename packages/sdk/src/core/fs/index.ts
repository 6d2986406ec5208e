// @runback/sdk/fs: the atomic file writes every record, journal and key goes through.
export { atomicWrite, type AtomicWriteData, type AtomicWriteOptions } from './atomic-write.js';
export { fileExists } from './exists.js';
