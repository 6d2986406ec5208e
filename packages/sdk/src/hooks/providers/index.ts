// Model API calls made through fetch, recorded as llm events: recognised by their HTTP shape
// (one codec per API), read into the event shape, streams teed as they arrive.
export { interceptProviderCall, type FetchLike } from './intercept.js';
export { runbackFetch, isRecordingFetch, type FetchFunction } from './recording-fetch.js';
export { instrumentClientFetch } from './client-fetch.js';
