// Event texts both fast-path passes are tested on (src/fast-path/canonical-events.test.ts and
// canonicalized-events.test.ts). Apart from CANONICAL_VALUES, each is JSON the strict reader
// accepts that is not stored in canonical form (docs/spec.md §2): the lexical pass must
// decline it, the canonicalizing pass must canonicalize it.

/** A record text whose events array holds the given event texts. */
export const recordText = (...events: string[]): string =>
  '{"$schema":"runback.audit/v2","events":[' + events.join(',') + ']}';

/** Events holding the canonical form of every kind of value. */
export const CANONICAL_VALUES: readonly string[] = [
  '{"_hash":"h"}',
  '{"_hash":"","a":{},"b":[],"c":[[]],"d":[{}],"e":{"f":{"g":null}}}',
  '{"_hash":"h","a":true,"b":false,"c":null,"d":-1.5,"e":1e+21,"f":1e-7}',
  '{"_hash":"h","n":[0,-5,123456789012345,1234567890123456,0.1,5e-324]}',
  '{"_hash":"h","s":"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f"}',
  '{"_hash":"h","s":"é😀\u2028/\u007f"}',
];

/** Events with whitespace inside. */
export const SPACED_EVENTS: readonly string[] = [
  '{ "_hash":"h","a":1}',
  '{"_hash":"h", "a":1}',
  '{"_hash":"h","a" :1}',
  '{"_hash":"h","a":[1 ,2]}',
  '{"_hash":"h","a":{}\n}',
];

/**
 * Number tokens not in Number::toString form; the last two print as 12345678901234567000 and
 * 9007199254740992.
 */
export const UNPRINTED_NUMBERS: readonly string[] = [
  ...['1.0', '1e2', '1E2', '1e0', '-0', '0.0', '1.50', '10e-1', '1e+2', '100e19'],
  ...['12345678901234567890', '9007199254740993'],
];

/** String escapes JSON.stringify does not write (the last seven have short escapes). */
export const UNWRITTEN_ESCAPES: readonly string[] = [
  ...['\\/', '\\u0061', '\\u001F', '\\u00e9', '\\u00F1', '\\u0020', '\\u0100'],
  ...['\\u1000', '\\ud800', '\\udc00', '\\ud83d\\ude00', '\\u2028'],
  ...['\\u0008', '\\u0009', '\\u000a', '\\u000c', '\\u000d', '\\u0022', '\\u005c'],
];

/** Events with members out of UTF-16 order at some depth. */
export const UNSORTED_EVENTS: readonly string[] = [
  '{"_hash":"h","b":1,"a":2}',
  '{"_hash":"h","a":{"y":1,"x":2}}',
  '{"_hash":"h","a":[{"x":1,"y":2},{"y":1,"x":2}]}',
  '{"_hash":"h","aa":1,"a":2}',
  '{"_hash":"h","\uffff":1,"😀":2}',
];

/** Events whose _hash is not first, not a string, or missing. */
export const HASH_NOT_FIRST: readonly string[] = [
  '{"a":1,"_hash":"h"}',
  '{"_hasx":"h","a":1}',
  '{"hash_":"h"}',
  '{"_has":"h","a":1}',
  '{"A":1,"_hash":"h"}',
  '{"a":1}',
  '{"_hash":1,"a":1}',
  '{"_hash":null,"a":1}',
  '{"_hash":{"a":1},"a":1}',
];
