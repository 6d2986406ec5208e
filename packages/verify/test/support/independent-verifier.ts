// A second verifier, written straight from docs/spec.md's rules with nothing shared with the
// package: JSON.parse, the plain recursive canonical form, node:crypto. Tests compare it with
// @runback/verify; it is deliberately simple and slow, and reads JSON with JSON.parse, so it
// does not judge duplicate members or invalid UTF-8 (the corpus's malformed group).
import { createHash, createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface IndependentResult {
  verdict: 'valid' | 'unverified' | 'invalid';
  checks: Record<string, boolean | string>;
}

export interface IndependentTrust {
  pinned?: string[];
  revoked?: string[];
  hmacKey?: string;
}

const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const isObj = (v: unknown): v is Record<string, J> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** canonical(v): sorted keys, JSON.stringify for everything else, undefined members omitted. */
export function canon(v: J): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v))
    return '[' + v.map((x) => (x === undefined ? 'null' : canon(x))).join(',') + ']';
  const parts: string[] = [];
  for (const k of Object.keys(v).sort()) {
    if (v[k] === undefined) continue;
    parts.push(JSON.stringify(k) + ':' + canon(v[k]));
  }
  return '{' + parts.join(',') + '}';
}

// key projection ----------------------------------------------------------------------------
const tokens = (p: string): string[] =>
  p
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
const index = (t: string, n: number): number =>
  /^(0|[1-9]\d*)$/.test(t) && Number(t) < n ? Number(t) : -1;

function keepPointer(v: J, ts: string[]): J {
  if (ts.length === 0) return v;
  const [t, ...rest] = ts as [string, ...string[]];
  if (Array.isArray(v)) {
    const i = index(t, v.length);
    const kept = i < 0 ? undefined : keepPointer(v[i], rest);
    return kept === undefined ? undefined : { [i]: kept };
  }
  if (!isObj(v) || !Object.hasOwn(v, t)) return undefined;
  const kept = keepPointer(v[t], rest);
  return kept === undefined ? undefined : { [t]: kept };
}
/** Merges kept fragments; array fragments are objects by index until finished. */
function merge(a: J, b: J, src: J): J {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === src || b === src) return src;
  const out: J = { ...a };
  for (const k of Object.keys(b))
    out[k] = merge(a[k], b[k], isObj(src) || Array.isArray(src) ? (src as J)[k] : undefined);
  return out;
}
function finish(frag: J, src: J): J {
  if (frag === src || frag === undefined) return frag;
  if (Array.isArray(src))
    return Object.keys(frag)
      .map(Number)
      .sort((x, y) => x - y)
      .map((i) => finish(frag[i], src[i]));
  const out: J = {};
  for (const k of Object.keys(frag)) out[k] = finish(frag[k], src[k]);
  return out;
}
function dropPointer(v: J, ts: string[]): J {
  const [t, ...rest] = ts as [string, ...string[]];
  if (Array.isArray(v)) {
    const i = index(t, v.length);
    if (i < 0) return v;
    if (rest.length === 0) return v.filter((_, k) => k !== i);
    return v.map((x, k) => (k === i ? dropPointer(x, rest) : x));
  }
  if (!isObj(v) || !Object.hasOwn(v, t)) return v;
  const out: J = { ...v };
  if (rest.length === 0) delete out[t];
  else out[t] = dropPointer(v[t], rest);
  return out;
}
function dropDot(v: J, segs: string[]): J {
  if (Array.isArray(v)) return v.map((x) => dropDot(x, segs));
  if (!isObj(v) || !Object.hasOwn(v, segs[0] as string)) return v;
  const [s, ...rest] = segs as [string, ...string[]];
  const out: J = { ...v };
  if (rest.length === 0) delete out[s];
  else out[s] = dropDot(v[s], rest);
  return out;
}
/** A key_projection other than null or {keep?: string[], drop?: string[]} fails the cassette check. */
function project(input: J, kp: J): J {
  if (kp === undefined || kp === null) return input;
  const lists = isObj(kp) ? [kp['keep'], kp['drop']] : [0];
  if (!lists.every((l) => l == null || (Array.isArray(l) && l.every((p) => typeof p === 'string'))))
    throw new TypeError('malformed key_projection');
  if (!isObj(input)) return input;
  let out = input;
  if (Array.isArray(kp['keep']) && kp['keep'].length > 0) {
    let frag: J = undefined;
    for (const p of kp['keep'] as string[]) {
      const f = p.startsWith('/')
        ? keepPointer(input, tokens(p))
        : Object.hasOwn(input, p.split('.')[0] as string)
          ? { [p.split('.')[0] as string]: input[p.split('.')[0] as string] }
          : undefined;
      frag = merge(frag, f, input);
    }
    out = frag === undefined ? {} : finish(frag, input);
  }
  for (const p of (Array.isArray(kp['drop']) ? kp['drop'] : []) as string[])
    out = p.startsWith('/') ? dropPointer(out, tokens(p)) : dropDot(out, p.split('.'));
  return out;
}

// digests -----------------------------------------------------------------------------------
function entry(e: J, reading: 'seed' | 'published'): J {
  if (!isObj(e)) return null;
  if (e['type'] === 'env') return { kind: e['kind'], key: e['key'], output: e['output'] };
  if (e['type'] !== 'llm' && e['type'] !== 'tool') return null;
  const llm = e['type'] === 'llm';
  const name = llm ? e['model']?.['model_id'] : e['tool_name'];
  const stored = llm ? e['response'] : e['output'];
  const input = project(llm ? e['request'] : e['input'], e['key_projection']);
  const output =
    reading === 'seed'
      ? (stored ?? { error: e['error'] })
      : e['error']
        ? { error: e['error'] }
        : stored;
  return { kind: e['type'], key: sha(`${e['type']}:${name}:${canon(input)}`), output };
}
function cassette(events: J[], reading: 'seed' | 'published'): { digest: string; count: number } {
  // Seq order, stable; a seq that is not a number sorts last (docs/spec.md §4.3).
  const seqOf = (e: J): number => (typeof e?.seq === 'number' ? e.seq : Infinity);
  const order = events
    .map((e, i) => [seqOf(e), i] as const)
    .sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
  let h = '';
  let count = 0;
  for (const [, i] of order) {
    const en = entry(events[i], reading);
    if (en === null) continue;
    h = sha(h + canon(en));
    count++;
  }
  return { digest: count === 0 ? sha('') : h, count };
}

// checks ------------------------------------------------------------------------------------
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
function instant(s: J): number | null {
  if (typeof s !== 'string') return null;
  const m = ISO.exec(s);
  if (!m) return null;
  const frac = ((m[7] ?? '.').slice(1) + '000').slice(0, 3);
  const t = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${frac}${m[8]}`);
  if (Number.isNaN(t)) return null;
  // Date.parse rolls 2026-02-30 over to March: read the fields back to refuse it.
  const off =
    m[8] === 'Z'
      ? 0
      : (m[8]!.startsWith('-') ? -1 : 1) *
        (Number(m[8]!.slice(1, 3)) * 60 + Number(m[8]!.slice(4)));
  const local = new Date(t + off * 60000).toISOString();
  return local.slice(0, 19) === `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}` ? t : null;
}
const sameInstant = (a: J, b: J): boolean => instant(a) !== null && instant(a) === instant(b);

function consistent(r: J): boolean {
  const { manifest: m, run, events } = r;
  if (!isObj(m) || !isObj(run) || !Array.isArray(events)) return false;
  if (typeof m['run_id'] !== 'string' || run['run_id'] !== m['run_id']) return false;
  if (events.some((e: J) => e?.run_id !== m['run_id'])) return false;
  if (m['event_count'] !== events.length) return false;
  const seqs = events.map((e: J) => e?.seq);
  if (seqs.some((s: J) => !Number.isInteger(s) || s < 0) || new Set(seqs).size !== seqs.length)
    return false;
  const starts = events.filter((e: J) => e?.type === 'run' && e.phase === 'start');
  const ends = events.filter((e: J) => e?.type === 'run' && e.phase === 'end');
  if (starts.length > 1 || ends.length > 1) return false;
  const [s, e] = [starts[0], ends[0]];
  if (e) {
    if (run['status'] !== e.status) return false;
    if ('output' in run && run['output'] !== undefined && canon(run['output']) !== canon(e.output))
      return false;
    if ('error' in run && run['error'] !== undefined && canon(run['error']) !== canon(e.error))
      return false;
    if (run['name'] !== undefined && run['name'] !== e.name) return false;
    if (
      run['ended_at'] !== undefined &&
      !sameInstant(run['ended_at'], e.ts_end === null ? e.ts_start : e.ts_end)
    )
      return false;
  } else if (run['status'] !== undefined && run['status'] !== 'running') return false;
  if (s && run['started_at'] !== undefined && !sameInstant(run['started_at'], s.ts_start))
    return false;
  return true;
}

function schema(r: J): boolean {
  if (!isObj(r) || !['runback.audit/v2', 'runback.cassette/v1'].includes(r['$schema']))
    return false;
  if (!isObj(r['manifest']) || !isObj(r['run']) || !Array.isArray(r['events'])) return false;
  const str = (v: J): boolean => typeof v === 'string' && v !== '';
  return r['events'].every(
    (e) =>
      isObj(e) &&
      e['schema_version'] === 1 &&
      str(e['span_id']) &&
      str(e['type']) &&
      str(e['ts_start']) &&
      (e['ts_end'] === null || str(e['ts_end'])) &&
      (e['parent_span_id'] === null || typeof e['parent_span_id'] === 'string') &&
      typeof e['_hash'] === 'string',
  );
}

const der = (pem: string): string =>
  createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('hex');

function signature(m: J, trust: IndependentTrust): string {
  if (!isObj(m) || m['signed'] !== true || m['signature'] == null) return 'unsigned';
  const sig = m['signature'];
  if (
    !isObj(sig) ||
    typeof m['content_digest'] !== 'string' ||
    typeof m['replay']?.['cassette_digest'] !== 'string'
  )
    return 'invalid';
  const payload = Buffer.from(`${m['content_digest']}:${m['replay']['cassette_digest']}`, 'utf8');
  const value = sig['value'];
  if (sig['alg'] === 'HMAC-SHA256') {
    if (typeof value !== 'string' || !/^[0-9a-f]{64}$/.test(value)) return 'invalid';
    if (trust.hmacKey === undefined) return 'no-key';
    const tag = createHmac('sha256', Buffer.from(trust.hmacKey, 'utf8')).update(payload).digest();
    return timingSafeEqual(tag, Buffer.from(value, 'hex')) ? 'valid' : 'invalid';
  }
  if (sig['alg'] !== 'Ed25519' || typeof value !== 'string' || !/^[0-9a-f]{128}$/.test(value))
    return 'invalid';
  const ok = (pem: string): boolean => {
    try {
      return verify(null, payload, createPublicKey(pem), Buffer.from(value, 'hex'));
    } catch {
      return false;
    }
  };
  const pinned = (trust.pinned ?? []).map(der);
  const revoked = (trust.revoked ?? []).map(der);
  if (sig['pubkey'] === undefined) {
    const r = (trust.revoked ?? []).find(ok);
    if (r !== undefined) return 'revoked';
    return (trust.pinned ?? []).some(ok) ? 'valid' : 'no-key';
  }
  let key: string;
  try {
    key = der(sig['pubkey']);
  } catch {
    return 'invalid';
  }
  if (!ok(sig['pubkey'])) return 'invalid';
  if (revoked.includes(key)) return 'revoked';
  return pinned.includes(key) ? 'valid' : 'valid-unpinned';
}

/** The six checks and the verdict, from the text of a record. */
export function independentVerify(text: string, trust: IndependentTrust = {}): IndependentResult {
  let r: J;
  try {
    r = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { verdict: 'invalid', checks: { schema: false } };
  }
  const events: J[] = Array.isArray(r?.events) ? r.events : [];
  let h = '';
  let chain = Array.isArray(r?.events);
  for (const e of events) {
    if (!isObj(e)) {
      chain = false;
      break;
    }
    const { _hash, ...rest } = e;
    h = sha(h + canon(rest));
    if (_hash !== h) chain = false;
  }
  const m = isObj(r?.manifest) ? r.manifest : {};
  const content = events.length === 0 ? sha('') : h;
  const digest = Array.isArray(r?.events) && m['content_digest'] === content;
  const claimed = m['replay'];
  const matches = (c: { digest: string; count: number }): boolean =>
    isObj(claimed) && claimed['cassette_digest'] === c.digest && claimed['entry_count'] === c.count;
  let cas = false;
  try {
    cas = matches(cassette(events, 'seed')) || matches(cassette(events, 'published'));
  } catch {
    cas = false;
  }
  const checks = {
    schema: schema(r),
    consistent: consistent(r),
    chain,
    digest,
    cassette: cas,
    signature: signature(m, trust),
  };
  const integrity =
    checks.schema && checks.consistent && checks.chain && checks.digest && checks.cassette;
  const verdict =
    !integrity || checks.signature === 'invalid' || checks.signature === 'revoked'
      ? 'invalid'
      : checks.signature === 'valid'
        ? 'valid'
        : 'unverified';
  return { verdict, checks };
}
