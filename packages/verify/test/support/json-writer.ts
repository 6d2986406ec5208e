// A JSON writer for tests that writes one value in many texts: canonical (docs/spec.md §2) at
// rate 0, and with growing rate more often in forms that parse to the same value but are not
// canonical: whitespace, shuffled members, `1.0`/`1e0`/`-0`-style numbers, `\u` and `\/`
// escapes with either hex case. The fast path of verifyJson must agree with the general one on
// every such text.
import fc from 'fast-check';

/** A JSON value whose objects keep their member order, so a text can list them in any order. */
export type Tree =
  | { readonly kind: 'scalar'; readonly value: null | boolean | number | string }
  | { readonly kind: 'array'; readonly items: readonly Tree[] }
  | { readonly kind: 'object'; readonly members: readonly (readonly [string, Tree])[] };

/** Member names that stress ordering and the engines' special cases. */
export const TRICKY_NAMES = [
  'a',
  'b',
  'A',
  'Z',
  '$',
  '_',
  '_hash',
  '_hasx',
  '__proto__',
  'toJSON',
  '0',
  '1',
  '10',
  '9a',
  'é',
  'ÿ',
  '\u2028',
  '😀',
  '\uffff',
  '',
  'a b',
  'x"y',
  'back\\slash',
  'slash/',
  '\u0000',
  '\n',
];

/** Strings that stress escaping: quotes, backslashes, controls, separators, astral, surrogates. */
export const trickyChar = fc.constantFrom(
  'a',
  'z',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\b',
  '\f',
  '\r',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\u2029',
  'é',
  '😀',
  '\ufeff',
);

/** Strings without lone surrogates (which JSON.stringify escapes, so canonical text holds `\u`). */
export const wellFormedString = fc.oneof(
  fc.string({ unit: trickyChar, maxLength: 8 }),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Any string, lone surrogates included. */
export const anyString = fc.oneof(
  wellFormedString,
  fc.string({ unit: fc.constantFrom('a', '\ud800', '\udbff', '\udc00', '\udfff'), maxLength: 4 }),
);

export const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 0.1, 1e21, 1e-7, 123.456, 2 ** 53, 2 ** 53 + 2, 1e300, 5e-324),
);

/** Trees with strings from `strings`; members of one object have distinct names. */
export function treeOf(strings: fc.Arbitrary<string>, maxDepth = 3): fc.Arbitrary<Tree> {
  const name = fc.oneof(fc.constantFrom(...TRICKY_NAMES), strings);
  const scalar: fc.Arbitrary<Tree> = fc
    .oneof(fc.constant(null), fc.boolean(), numbers, strings)
    .map((value): Tree => ({ kind: 'scalar', value }));
  const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', maxDepth },
      scalar,
      fc.array(tie('tree'), { maxLength: 4 }).map((items): Tree => ({ kind: 'array', items })),
      fc
        .uniqueArray(fc.tuple(name, tie('tree')), { maxLength: 5, selector: ([k]) => k })
        .map((members): Tree => ({ kind: 'object', members })),
    ),
  }));
  return tree;
}

/** An event: a `_hash` member first (as writers store it) and payload members. */
export function eventOf(strings: fc.Arbitrary<string>): fc.Arbitrary<Tree> {
  const name = fc.oneof(fc.constantFrom(...TRICKY_NAMES), strings).filter((n) => n !== '_hash');
  return fc
    .tuple(
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 64 }),
      fc.uniqueArray(fc.tuple(name, treeOf(strings)), { maxLength: 6, selector: ([k]) => k }),
    )
    .map(([hash, members]): Tree => ({
      kind: 'object',
      members: [['_hash', { kind: 'scalar', value: hash }], ...sorted(members)],
    }));
}

/** Members sorted by name in UTF-16 code unit order (the `_hash` member placed first stays). */
function sorted(members: readonly (readonly [string, Tree])[]): (readonly [string, Tree])[] {
  return [...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The tree as runback's writers store it (docs/spec.md §7): every object's members sorted, the
 * event's `_hash` kept first. Members whose names JSON.stringify escapes (quotes, backslashes,
 * controls) are dropped: the fast path declines escaped names rather than compare them.
 */
export function storedForm(tree: Tree, top = true): Tree {
  if (tree.kind === 'scalar') return tree;
  if (tree.kind === 'array')
    return { kind: 'array', items: tree.items.map((item) => storedForm(item, false)) };
  const plain = tree.members
    .filter(([name]) => JSON.stringify(name).slice(1, -1) === name)
    .map(([name, value]) => [name, storedForm(value, false)] as const);
  const hash = top ? plain.filter(([name]) => name === '_hash') : [];
  const rest = top ? plain.filter(([name]) => name !== '_hash') : plain;
  return { kind: 'object', members: [...hash, ...sorted(rest)] };
}

/** The tree of a parsed JSON value, members in the order the value enumerates them. */
export function treeFromValue(value: unknown): Tree {
  if (Array.isArray(value)) return { kind: 'array', items: value.map(treeFromValue) };
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => [k, treeFromValue(v)] as const);
    return { kind: 'object', members };
  }
  return { kind: 'scalar', value: value as null | boolean | number | string };
}

/** The JavaScript value of a tree, as JSON.parse would build it from any of its texts. */
export function valueOf(tree: Tree): unknown {
  return JSON.parse(writeJson(tree, 0, () => 0));
}

/** A source of numbers in [0, 1): fast-check's, so a failing case shrinks (see randomOf). */
export type Random = () => number;

/** Draws from fast-check's generator `g` inside a property, as writeJson's randomness. */
export function randomOf(g: fc.GeneratorValue): Random {
  return () => g(fc.double, { min: 0, max: 1, maxExcluded: true, noNaN: true });
}

/** `tree` with every object's members in a random order (drawn from `random`). */
export function shuffled(tree: Tree, random: Random): Tree {
  if (tree.kind === 'scalar') return tree;
  if (tree.kind === 'array')
    return { kind: 'array', items: tree.items.map((item) => shuffled(item, random)) };
  const members = tree.members.map(([name, value]) => [name, shuffled(value, random)] as const);
  for (let i = members.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = members[i] as (typeof members)[number];
    members[i] = members[j] as (typeof members)[number];
    members[j] = swap;
  }
  return { kind: 'object', members };
}

/**
 * Writes `tree` as JSON text. At `rate` 0 objects keep the tree's member order and everything
 * else is written as JSON.stringify writes it; with probability `rate` per token (drawn from
 * `random`) a token takes a non-canonical form of the same value.
 */
export function writeJson(tree: Tree, rate: number, random: Random): string {
  const odd = (): boolean => rate > 0 && random() < rate;
  const space = (): string =>
    odd() ? ([' ', '\n', '\t', '\r\n'][Math.floor(random() * 4)] as string) : '';
  const write = (node: Tree): string => {
    if (node.kind === 'scalar') {
      const { value } = node;
      if (typeof value === 'number')
        return odd() ? numberVariant(value, random) : JSON.stringify(value);
      if (typeof value === 'string') return stringText(value, odd, random);
      return JSON.stringify(value);
    }
    if (node.kind === 'array')
      return (
        space() + '[' + node.items.map((item) => space() + write(item) + space()).join(',') + ']'
      );
    let members = node.members;
    if (odd() && members.length > 1) members = [...members].reverse();
    const parts = members.map(
      ([name, value]) =>
        space() + stringText(name, odd, random) + space() + ':' + space() + write(value),
    );
    return '{' + parts.join(',') + space() + '}';
  };
  return write(tree);
}

/** A string's JSON text with only its characters' forms varied (see writeJson). */
export function writeString(s: string, rate: number, random: Random): string {
  return stringText(s, () => random() < rate, random);
}

/** A number's JSON text: as JSON.stringify writes it, or half the time in another form. */
export function writeNumber(n: number, random: Random): string {
  return random() < 0.5 ? JSON.stringify(n) : numberVariant(n, random);
}

/** A number in another form that parses to the same double. */
function numberVariant(n: number, random: Random): string {
  const forms = [
    n.toExponential(),
    String(n).toUpperCase(),
    Number.isInteger(n) && Math.abs(n) < 1e15 ? `${n}.0` : String(n),
    Number.isInteger(n) && Math.abs(n) < 1e15 ? `${n}e0` : String(n),
    Object.is(n, 0) ? '-0' : String(n),
    Object.is(n, 0) ? '0.0e5' : String(n),
  ];
  return forms[Math.floor(random() * forms.length)] as string;
}

/** A string's JSON text, some characters written as `\u` escapes (either case) or `\/`. */
function stringText(s: string, odd: () => boolean, random: Random): string {
  let out = '"';
  // By code point, so a surrogate pair is written raw (or escaped) as a whole.
  for (const c of s) {
    if (odd()) {
      const upper = random() < 0.5;
      if (c === '/' && upper) out += '\\/';
      else
        for (let k = 0; k < c.length; k++) {
          const hex = c.charCodeAt(k).toString(16).padStart(4, '0');
          out += '\\u' + (upper ? hex.toUpperCase() : hex);
        }
    } else {
      out += JSON.stringify(c).slice(1, -1);
    }
  }
  return out + '"';
}
