import { describe, expect, it } from 'vitest';
import { diffJson } from './json-diff.js';

describe('diffJson', () => {
  it('is empty for equal JSON, whatever the member order', () => {
    expect(diffJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toEqual([]);
  });

  it('names additions, removals and replacements by JSON Pointer, escaping / and ~', () => {
    expect(
      diffJson(
        { keep: 1, 'a/b': 1, gone: true, list: [1, 2, 3] },
        { keep: 1, 'a/b': 2, 'n~ew': 'x', list: [1, 5] },
      ),
    ).toEqual([
      { op: 'replace', path: '/a~1b', before: 1, after: 2 },
      { op: 'remove', path: '/gone', before: true },
      { op: 'replace', path: '/list/1', before: 2, after: 5 },
      { op: 'remove', path: '/list/2', before: 3 },
      { op: 'add', path: '/n~0ew', after: 'x' },
    ]);
  });

  it('replaces across types and at the root, and ignores chosen names at any depth', () => {
    expect(diffJson({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { op: 'replace', path: '/a', before: [1], after: { 0: 1 } },
    ]);
    expect(diffJson('x', 'y')).toEqual([{ op: 'replace', path: '', before: 'x', after: 'y' }]);
    expect(
      diffJson(
        { id: 1, deep: [{ id: 2, v: 1 }] },
        { id: 9, deep: [{ id: 8, v: 1 }] },
        { ignore: new Set(['id']) },
      ),
    ).toEqual([]);
  });

  it('treats an undefined member as absent, as JSON does', () => {
    expect(diffJson({ a: undefined }, {})).toEqual([]);
  });
});
