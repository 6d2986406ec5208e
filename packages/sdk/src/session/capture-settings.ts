// Which environment reads a run captures. Capture is opt-in per run.
import { argError } from '../core/errors.js';

/** Per-kind switches of `captureEnv`. */
export interface CaptureEnvOptions {
  /** `Date.now()` as `now` events. Default true. */
  readonly now?: boolean;
  /** `new Date()` (no arguments) and `Date()` as `date` events. Default true. */
  readonly date?: boolean;
  /** `Math.random()` as `random` events. Default true. */
  readonly random?: boolean;
  /** `crypto.randomUUID()` (global and node:crypto) as `uuid` events. Default true. */
  readonly uuid?: boolean;
  /** `fetch()` as `fetch` events. Default true. */
  readonly fetch?: boolean;
  /** `performance.now()` as `clock` events. Default false: runtimes and libraries call it often. */
  readonly clock?: boolean;
  /**
   * Calls through `fetch` to a known model API (OpenAI chat completions and responses,
   * Anthropic messages) as `llm` events rather than raw `fetch` events. Default true.
   */
  readonly providers?: boolean;
}

/**
 * The capture a record's events call for: each env kind the record holds (docs/spec.md §5: env
 * events name their kind), and providers when it holds a model call.
 */
export function captureOfKinds(kinds: ReadonlySet<string>, providers: boolean): CaptureEnvOptions {
  return {
    now: kinds.has('now'),
    date: kinds.has('date'),
    random: kinds.has('random'),
    uuid: kinds.has('uuid'),
    fetch: kinds.has('fetch'),
    clock: kinds.has('clock'),
    providers,
  };
}

/** Resolved capture switches. */
export type CaptureSettings = Required<CaptureEnvOptions>;

/** Nothing captured. */
export const NO_CAPTURE: CaptureSettings = Object.freeze({
  now: false,
  date: false,
  random: false,
  uuid: false,
  fetch: false,
  clock: false,
  providers: false,
});

const DEFAULTS: CaptureSettings = Object.freeze({
  now: true,
  date: true,
  random: true,
  uuid: true,
  fetch: true,
  clock: false,
  providers: true,
});

/** Resolves the `captureEnv` option. */
export function captureSettings(option: boolean | CaptureEnvOptions | undefined): CaptureSettings {
  if (option === undefined || option === false) return NO_CAPTURE;
  if (option === true) return DEFAULTS;
  if (typeof option !== 'object' || option === null) {
    throw argError('captureEnv', 'a boolean or an options object', option);
  }
  const settings = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as (keyof CaptureSettings)[]) {
    const value = option[name];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw argError(`captureEnv.${name}`, 'a boolean', value);
    settings[name] = value;
  }
  return Object.freeze(settings);
}

/** Whether any global needs wrapping for these settings. */
export function capturesAnything(settings: CaptureSettings): boolean {
  return Object.values(settings).some(Boolean);
}
