import { canonical } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReplayDigestError } from './errors.js';
import { parseKeyProjection, projectKeyInput } from './projection.js';

const request = {
  system: 'You approve loans.',
  messages: [
    { role: 'user', content: 'apply', id: 'm1', meta: { nonce: 'a' } },
    { role: 'assistant', content: 'ok', id: 'm2', meta: { nonce: 'b' } },
  ],
  params: { temperature: 0, request_id: 'r-1', 'a/b': 1, 'm~n': 2 },
  tools: [],
};

const project = (p: unknown): unknown =>
  JSON.parse(canonical(projectKeyInput(request, parseKeyProjection(p))));

describe('projectKeyInput', () => {
  it('keep with a dot-path keeps only the first segment, whole', () => {
    expect(project({ keep: ['params.temperature', 'system'] })).toEqual({
      params: request.params,
      system: request.system,
    });
  });

  it('keep with a JSON Pointer keeps exactly that member', () => {
    expect(project({ keep: ['/params/temperature', '/system'] })).toEqual({
      params: { temperature: 0 },
      system: request.system,
    });
    expect(project({ keep: ['/params/a~1b', '/params/m~0n'] })).toEqual({
      params: { 'a/b': 1, 'm~n': 2 },
    });
    expect(project({ keep: ['/messages/1/content'] })).toEqual({ messages: [{ content: 'ok' }] });
    expect(project({ keep: ['/missing', '/params/missing', '/messages/9'] })).toEqual({});
  });

  it('drop with a dot-path descends into every array element', () => {
    expect(project({ drop: ['messages.id', 'messages.meta.nonce', 'params.request_id'] })).toEqual({
      ...request,
      messages: [
        { role: 'user', content: 'apply', meta: {} },
        { role: 'assistant', content: 'ok', meta: {} },
      ],
      params: { temperature: 0, 'a/b': 1, 'm~n': 2 },
    });
  });

  it('drop with a JSON Pointer removes exactly one member', () => {
    expect(project({ drop: ['/messages/0/id'] })).toEqual({
      ...request,
      messages: [{ role: 'user', content: 'apply', meta: { nonce: 'a' } }, request.messages[1]],
    });
    expect(project({ drop: ['/messages/0'] })).toEqual({
      ...request,
      messages: [request.messages[1]],
    });
  });

  it('applies keep before drop', () => {
    expect(project({ keep: ['params'], drop: ['params.request_id', 'system'] })).toEqual({
      params: { temperature: 0, 'a/b': 1, 'm~n': 2 },
    });
  });

  it('projects only plain objects, and never mutates the input', () => {
    const before = canonical(request);
    project({ drop: ['messages.meta.nonce', '/params/temperature'], keep: ['messages', 'params'] });
    expect(canonical(request)).toBe(before);
    const list = [{ a: 1 }];
    expect(projectKeyInput(list, { drop: ['a'] })).toBe(list);
    expect(projectKeyInput('text', { keep: [] })).toBe('text');
    expect(projectKeyInput(null, { keep: [] })).toBe(null);
  });

  it('keeps __proto__ as an ordinary member', () => {
    const input = JSON.parse('{"__proto__":{"x":1},"b":2,"c":3}') as unknown;
    expect(canonical(projectKeyInput(input, { keep: ['__proto__', 'b'] }))).toBe(
      '{"__proto__":{"x":1},"b":2}',
    );
    expect(canonical(projectKeyInput(input, { drop: ['b'] }))).toBe('{"__proto__":{"x":1},"c":3}');
    expect(canonical(projectKeyInput(input, { drop: ['/__proto__/x'] }))).toBe(
      '{"__proto__":{},"b":2,"c":3}',
    );
  });

  it('an empty keep list is no allowlist: the input is kept whole', () => {
    const whole = project({});
    expect(project({ keep: [] })).toEqual(whole);
    expect(Object.keys(whole as object).length).toBeGreaterThan(0);
  });
});

describe('parseKeyProjection', () => {
  it('treats null and undefined as no projection', () => {
    expect(parseKeyProjection(undefined)).toBeUndefined();
    expect(parseKeyProjection(null)).toBeUndefined();
  });

  it('rejects malformed projections with a code', () => {
    for (const bad of ['x', [], { keep: 'a' }, { drop: [1] }]) {
      expect(() => parseKeyProjection(bad)).toThrow(ReplayDigestError);
    }
    expect(() => parseKeyProjection({ drop: [1] })).toThrow(
      /expected key_projection.drop to be an array of strings, got an array/,
    );
  });
});

describe('projection properties', () => {
  it('dropping a volatile member makes two otherwise equal inputs key equally', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
        fc.string(),
        fc.string(),
        (base, n1, n2) => {
          const p = { drop: ['nonce'] };
          const a = projectKeyInput({ ...base, nonce: n1 }, p);
          const b = projectKeyInput({ ...base, nonce: n2 }, p);
          expect(canonical(a)).toBe(canonical(b));
        },
      ),
      { numRuns: 200 },
    );
  });
});
