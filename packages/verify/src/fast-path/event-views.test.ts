import { describe, expect, it } from 'vitest';
import { PEM, sealedLoanRecord, viaJson } from '../../test/support/fixtures.js';
import { verifyJson, verifyJsonWith } from '../verify.js';
import { canonicalizeEvents } from './canonicalized-events.js';
import { readRecordAroundViews, VIEW_MEMBERS, withViews } from './event-views.js';

const TRUST = { pinned: [PEM.current] };

/** The record's text in JSON.stringify member order (_hash wherever the writer put it). */
function recordText(): string {
  return JSON.stringify(viaJson(sealedLoanRecord()));
}

function viewsOf(text: string) {
  const known = canonicalizeEvents(text);
  if (known === null) throw new Error('expected the pass to scan the events');
  const around = readRecordAroundViews(text, known.scan);
  return around === undefined ? undefined : withViews(text, known.scan, around);
}

describe('readRecordAroundViews, withViews', () => {
  it('gives each proven event as a view of the members the steps read', () => {
    // Run events and events with a key projection are parsed whole (a step reads inside them).
    const text = recordText();
    const read = viewsOf(text);
    expect(read).toBeDefined();
    const events = (read?.record as { events: Record<string, unknown>[] }).events;
    const parsed = (JSON.parse(text) as { events: Record<string, unknown>[] }).events;
    let views = 0;
    events.forEach((event, k) => {
      const original = parsed[k] as Record<string, unknown>;
      if (original['type'] === 'run' || original['key_projection'] !== undefined) {
        expect(event).toEqual(original);
        return;
      }
      views++;
      expect(Object.keys(event)).toEqual(VIEW_MEMBERS);
      for (const name of VIEW_MEMBERS) {
        const value = original[name];
        const isText =
          ['request', 'response', 'input', 'output'].includes(name) &&
          typeof value === 'object' &&
          value !== null;
        if (isText) expect(event[name]).toEqual(Array.isArray(value) ? [] : {});
        else expect(event[name]).toEqual(value);
      }
    });
    expect(views).toBeGreaterThan(0);
  });

  it('parses whole an event with a key projection, and agrees with the plain reading', () => {
    const record = viaJson(sealedLoanRecord()) as unknown as { events: Record<string, unknown>[] };
    const tool = record.events.find((e) => e['type'] === 'tool') as Record<string, unknown>;
    tool['key_projection'] = { keep: ['amount'] };
    const text = JSON.stringify(record);
    const read = viewsOf(text);
    const events = (read?.record as { events: unknown[] }).events;
    const k = record.events.indexOf(tool);
    expect(events[k]).toEqual(JSON.parse(JSON.stringify(tool)));
    expect(verifyJson(text, TRUST)).toEqual(verifyJsonWith(text, TRUST, 'plain'));
  });

  it('leaves to the general path an event whose tokens JSON.parse refuses', () => {
    const text = recordText();
    const at = text.indexOf('"seq":') + '"seq":'.length;
    // Each makes the first seq (0) a token JSON.parse refuses: 00, +0, t0, "\x",0 …
    for (const bad of ['0', '+', 't', '"\\x",', '"\u0001",']) {
      const broken = text.slice(0, at) + bad + text.slice(at);
      expect(viewsOf(broken)).toBeUndefined();
      const ours = verifyJson(broken, TRUST);
      expect(ours).toEqual(verifyJsonWith(broken, TRUST, 'plain'));
      expect(ours.errors[0]?.code).toBe('JSON_SYNTAX');
    }
  });

  it('reports the reading errors of the rest of the text as the plain reading does', () => {
    const text = recordText();
    for (const broken of [
      text.replace('"manifest":{', '"manifest":{"run_id":0,'),
      text.replace('"run":{', '"run":{"a":1e400,'),
      text.replace('"events":[', '"\\u0065vents":[],"events":['),
      text.slice(0, -1) + ',}',
    ]) {
      const ours = verifyJson(broken, TRUST);
      expect(ours.verdict).toBe('invalid');
      expect(ours).toEqual(verifyJsonWith(broken, TRUST, 'plain'));
    }
  });
});
