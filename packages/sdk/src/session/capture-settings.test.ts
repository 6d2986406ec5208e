import { describe, expect, it } from 'vitest';
import { NO_CAPTURE, captureSettings, capturesAnything } from './capture-settings.js';

describe('captureSettings', () => {
  it('captures nothing by default or with false', () => {
    expect(captureSettings(undefined)).toBe(NO_CAPTURE);
    expect(captureSettings(false)).toBe(NO_CAPTURE);
    expect(capturesAnything(NO_CAPTURE)).toBe(false);
  });

  it('true captures everything but performance.now', () => {
    const settings = captureSettings(true);
    expect(Object.keys(settings).sort()).toEqual(Object.keys(NO_CAPTURE).sort());
    expect(Object.entries(settings).filter(([, on]) => !on)).toEqual([['clock', false]]);
  });

  it('an object overrides the defaults one switch at a time, and the result is frozen', () => {
    const settings = captureSettings({ clock: true, random: false });
    expect(settings).toEqual({ ...captureSettings(true), clock: true, random: false });
    expect(Object.isFrozen(settings)).toBe(true);
    const allOff = Object.fromEntries(Object.keys(NO_CAPTURE).map((name) => [name, false]));
    expect(capturesAnything(captureSettings(allOff))).toBe(false);
    for (const name of Object.keys(NO_CAPTURE)) {
      expect(capturesAnything(captureSettings({ ...allOff, [name]: true })), name).toBe(true);
    }
  });

  it.each([
    ['a string', 'yes', /^captureEnv: expected a boolean or an options object/],
    ['null', null, /^captureEnv:/],
    ['a switch that is not a boolean', { now: 1 }, /^captureEnv\.now: expected a boolean, got 1/],
  ])('throws a labelled TypeError for %s', (_, option, message) => {
    expect(() => captureSettings(option as never)).toThrow(TypeError);
    expect(() => captureSettings(option as never)).toThrow(message);
  });
});
