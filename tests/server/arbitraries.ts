/**
 * fast-check arbitraries from the contract's zod 4 schemas, for the property tests
 * (tests/server/property.test.ts). `arbitraryFor(schema)` walks the schema through its public
 * definition (`schema._zod.def`) and gives values of two kinds, mixed at every level of the value:
 *
 * - shaped ones that respect the schema: objects with their keys, enum members, numbers in range,
 *   strings within their lengths and patterns, ISO dates where a datetime is asked for — so requests
 *   get past validation and into the handlers;
 * - hostile ones: wrong types, missing and extra keys (`__proto__`, `constructor`), NUL characters,
 *   lone surrogates, injection-looking text, numbers out of range or huge, NaN-like strings, deep
 *   nesting (40 levels), JSON text nested inside a field (objects, and the values of fields that decode
 *   JSON text, as their JSON: a NUL or lone surrogate inside is then an escape) and, sparingly, a 1 MB
 *   string.
 *
 * Kinds the walker does not know fall back to hostile JSON. Also here: the URL encoders the requests need
 * (query strings and path segments that may carry lone surrogates, which encodeURIComponent refuses).
 */
import fc from 'fast-check';

type Def = Record<string, unknown> & { type: string };
type Schema = unknown;

const defOf = (schema: Schema): Def => (schema as { _zod: { def: Def } })._zod.def;
const checkDefs = (def: Def): Record<string, unknown>[] =>
  ((def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map((c) => c._zod.def);

// ---------- hostile values, whatever the schema ----------

/** 1 MB of text: over the server's body limit in JSON, far over every max length in a query. */
const MEGABYTE = 'x'.repeat(1024 * 1024);

/** Text that has broken servers before. None of it contains the markers the leak check looks for. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\r\n',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udc00y',
  '\ud83d',
  "'; drop table users; --",
  "' or '1'='1",
  '"; select pg_sleep(5); --',
  "Robert'); DROP TABLE students;--",
  '\\',
  "\\'",
  '%',
  '_%',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '%00',
  '%s%s%s%n',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1e99',
  '-1e99',
  '0x1F',
  '1.5',
  '99999999999999999999999',
  '９',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '\u202egnp.exe',
  '😀'.repeat(40),
  '\u0085\u2028\u2029',
  '\ufeff',
  'ǅ̸̨̛͉',
  'a'.repeat(10_001),
  // JSON text nested inside a field, with NUL and lone surrogates written as escapes: plain ASCII until
  // a field that decodes JSON text (template variables) decodes it
  '{"a":"\\u0000"}',
  '{"a":"x\\ud800"}',
  '["\\udc00"]',
  '{"a":{"b":["\\u0000"]}}',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  // a random string with one NUL or lone surrogate somewhere in it
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\u0000', '\ud800', '\udfff'), fc.string({ maxLength: 10 }))
      .map(([a, bad, b]) => a + bad + b),
  },
  { weight: 1, arbitrary: fc.constant(MEGABYTE) },
);

const HOSTILE_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  1.5,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  1e308,
  -1e308,
  5e-324,
] as const;

function nested(levels: number, kind: 'array' | 'object' | 'mixed', leaf: unknown = 'x'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) {
    const asArray = kind === 'array' || (kind === 'mixed' && i % 2 === 0);
    value = asArray ? [value] : { a: value };
  }
  return value;
}

/** Deeply nested values: 40 levels (over the server's limit of 32) and a few far deeper. */
export const deepValue: fc.Arbitrary<unknown> = fc.constantFrom(
  nested(40, 'array'),
  nested(40, 'object'),
  nested(40, 'mixed', '\u0000'),
  nested(33, 'object', 1),
  nested(500, 'array'),
);

/** Keys that are dangerous to copy into an object, and a few merely odd ones. */
export const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '$where',
  'a.b',
  '',
  ' ',
  '\u0000',
] as const;

/** Defines `key` as an own enumerable property, so `__proto__` is a key, not the prototype. */
export function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

const protoObject: fc.Arbitrary<unknown> = fc.constantFrom(
  withKey({}, '__proto__', { admin: true, roles: ['admin'], isAdmin: true }),
  withKey({}, 'constructor', { prototype: { admin: true } }),
  withKey(withKey({}, '__proto__', null), 'constructor', 'x'),
  JSON.parse('{"__proto__":{"polluted":1},"a":{"__proto__":{"polluted":2}}}') as unknown,
);

/** A value of any JSON type, meant to be wrong wherever it lands. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [[]], [null], { '': '' }) },
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...HOSTILE_NUMBERS) },
  { weight: 6, arbitrary: hostileString },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: protoObject },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
);

// ---------- shaped values ----------

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * Values of the shapes servers check beyond the schema (days, webhooks, base URLs, signing secrets,
 * uuids): a patterned string draws from those its pattern accepts, any string now and then from all.
 */
const WELL_KNOWN = [
  day(0),
  day(-1),
  day(-30),
  day(1),
  '2024-02-29',
  '2024-12-31',
  new Date().toISOString(),
  'https://oapi.dingtalk.com/robot/send?access_token=0123456789abcdef0123',
  'https://api.example.com/v1',
  'http://127.0.0.1:9/v1',
  'SEC0123456789abcdef0123456789abcdef',
  '123e4567-e89b-42d3-a456-426614174000',
  '13812345678',
  'pt_0123456789abcdefghijklmnopqrstuv',
  'host', // a template variable's name (the property test's actors have a template using it)
];

/** Text that is harmless for the schema yet interesting for the server: CJK, emoji, quotes, SQL-looking. */
const FRIENDLY_TEXT = [
  '张三',
  '计算机工程学院',
  '中华人民共和国的首都是哪座城市？',
  "O'Brien",
  'a "quoted" word',
  "'; drop table users; --",
  '<b>bold</b>',
  '😀 emoji',
  'café',
  '%_',
  '  padded  ',
  '题目：${title} 选项：${options}',
  ...WELL_KNOWN,
];

interface StringSpec {
  min: number;
  max: number;
  patterns: RegExp[];
  format?: string;
}

function stringSpec(def: Def): StringSpec {
  const spec: StringSpec = { min: 0, max: Infinity, patterns: [] };
  // A format schema (z.iso.datetime(), z.uuid()) carries its format in its own definition.
  const own = [def, ...checkDefs(def)];
  for (const d of own) {
    switch (d.check) {
      case 'min_length':
        spec.min = Math.max(spec.min, d.minimum as number);
        break;
      case 'max_length':
        spec.max = Math.min(spec.max, d.maximum as number);
        break;
      case 'length_equals':
        spec.min = spec.max = d.length as number;
        break;
      case 'string_format':
        if (d.format === 'regex' && d.pattern instanceof RegExp) spec.patterns.push(d.pattern);
        else if (typeof d.format === 'string') spec.format = d.format;
        break;
      default:
        break;
    }
  }
  return spec;
}

const DAY_MS = 86_400_000;

function formatted(format: string): fc.Arbitrary<string> | null {
  switch (format) {
    case 'datetime':
      return fc.oneof(
        // around now: the ranges that matter (schedules, expiries, audit windows) are near it
        fc.integer({ min: -40 * DAY_MS, max: 40 * DAY_MS }).map((ms) => new Date(Date.now() + ms).toISOString()),
        fc
          .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.constantFrom('2024-02-29T12:00:00+08:00', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z'),
      );
    case 'date':
      return fc
        .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'uuid':
    case 'guid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'url':
      return fc.webUrl();
    default:
      return null;
  }
}

function shapedString(def: Def): fc.Arbitrary<string> {
  const spec = stringSpec(def);
  const { min } = spec;
  const max = Number.isFinite(spec.max) ? spec.max : Math.max(min, 64) + 4000;
  const cut = (s: string) => (s.length > max ? s.slice(0, max) : s);
  const choices: fc.WeightedArbitrary<string>[] = [];
  const fromFormat = spec.format ? formatted(spec.format) : null;
  if (fromFormat) choices.push({ weight: 8, arbitrary: fromFormat });
  for (const pattern of spec.patterns) {
    const known = WELL_KNOWN.filter((v) => pattern.test(v) && v.length >= min && v.length <= max);
    if (known.length > 0) choices.push({ weight: 8, arbitrary: fc.constantFrom(...known) });
    try {
      choices.push({ weight: 8, arbitrary: fc.stringMatching(pattern).map(cut) });
    } catch {
      // a pattern fast-check cannot invert: plain strings below
    }
  }
  const small = Math.min(max, min + 24);
  // free text where the schema asks for a shape is mostly refused: rarer then
  const free = choices.length > 0 ? 1 : 4;
  const friendly = FRIENDLY_TEXT.filter((s) => s.length >= min && s.length <= max);
  choices.push(
    { weight: free, arbitrary: fc.string({ minLength: min, maxLength: small }) },
    { weight: free, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: small }).map(cut) },
  );
  if (friendly.length > 0) choices.push({ weight: 1, arbitrary: fc.constantFrom(...friendly) });
  // the boundary: exactly the longest allowed (one over is among the hostile values), also in emoji
  // (surrogate pairs) at even and odd offsets, which a server truncating by UTF-16 units cuts in half
  if (max <= 100_000) {
    const pairs = (lead: string) => lead + '😀'.repeat(Math.floor((max - lead.length) / 2));
    const longest = ['x'.repeat(max), '汉'.repeat(max), pairs(''), pairs('a')].filter((v) => v.length >= min);
    if (longest.length > 0) choices.push({ weight: 1, arbitrary: fc.constantFrom(...longest) });
  }
  return fc.oneof(...choices);
}

interface NumberSpec {
  min: number;
  max: number;
  int: boolean;
}

function numberSpec(def: Def): NumberSpec {
  const spec: NumberSpec = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, int: false };
  for (const d of checkDefs(def)) {
    switch (d.check) {
      case 'number_format': {
        const format = d.format as string;
        if (format === 'safeint') {
          spec.int = true;
          spec.min = Math.max(spec.min, Number.MIN_SAFE_INTEGER);
          spec.max = Math.min(spec.max, Number.MAX_SAFE_INTEGER);
        } else if (format === 'int32') {
          spec.int = true;
          spec.min = Math.max(spec.min, -(2 ** 31));
          spec.max = Math.min(spec.max, 2 ** 31 - 1);
        } else if (format === 'uint32') {
          spec.int = true;
          spec.min = Math.max(spec.min, 0);
          spec.max = Math.min(spec.max, 2 ** 32 - 1);
        }
        break;
      }
      case 'greater_than': {
        const v = d.value as number;
        spec.min = Math.max(spec.min, d.inclusive ? v : v + (spec.int ? 1 : Number.EPSILON * Math.max(1, Math.abs(v))));
        break;
      }
      case 'less_than': {
        const v = d.value as number;
        spec.max = Math.min(spec.max, d.inclusive ? v : v - (spec.int ? 1 : Number.EPSILON * Math.max(1, Math.abs(v))));
        break;
      }
      default:
        break;
    }
  }
  return spec;
}

function shapedNumber(def: Def): fc.Arbitrary<number> {
  const { min, max, int } = numberSpec(def);
  if (int) {
    const lo = Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER));
    const hi = Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER));
    if (lo > hi) return fc.constant(lo);
    // fast-check biases integers towards small values and the bounds; small ids hit seeded rows
    return fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: lo, max: hi }) },
      { weight: 2, arbitrary: fc.integer({ min: Math.max(lo, Math.min(hi, 1)), max: Math.max(lo, Math.min(hi, 8)) }) },
      { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
    );
  }
  const lo = Math.max(min, -1e12);
  const hi = Math.min(max, 1e12);
  return fc.oneof(
    { weight: 6, arbitrary: fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
  );
}

function hostileNumber(def: Def): fc.Arbitrary<unknown> {
  const { min, max, int } = numberSpec(def);
  const near: unknown[] = [];
  if (min > -Number.MAX_VALUE) near.push(min - 1, min - 0.5);
  if (max < Number.MAX_VALUE) near.push(max + 1, max + 0.5);
  if (int) near.push(1.5, 0.1);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<unknown>(...near, ...HOSTILE_NUMBERS) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>('1', ' 7 ', '1e99', 'NaN', '-1', '0x10', '', '1_000', '١٢'),
    },
  );
}

// ---------- the walker ----------

export interface ArbitraryOptions {
  /**
   * Values to try for object fields of a given name, wherever they are (a webhook the server accepts,
   * the caller's own password): field rules the schema cannot express, so that more requests get past
   * the server's own checks. Drawn 2 times in 5 for such a field.
   */
  hints?: Record<string, readonly unknown[]>;
  /**
   * Shaped values for object fields of a given name, instead of the schema's (hostile ones still come
   * now and then): for a field whose legitimate maximum makes a request expensive.
   */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
  /** Relative weight of a shaped value for the whole value (default 4). */
  shaped?: number;
  /** Relative weight of a hostile value for the whole value (default 1). */
  hostile?: number;
}

/**
 * Below the top level a hostile value is rarer (1 in 16 per field), so that about half of the values of
 * a five-field body still pass validation and reach the handler.
 */
const CHILD_SHAPED = 15;
const CHILD_HOSTILE = 1;
const ARRAY_ELEMENT_SHAPED = 80;

const cache = new WeakMap<object, fc.Arbitrary<unknown>>();
/** The hints of the arbitraryFor() call under construction (building an arbitrary is synchronous). */
let currentHints: Record<string, readonly unknown[]> = {};
let currentOverrides: Record<string, fc.Arbitrary<unknown>> = {};

/**
 * Values for `schema`: mostly shaped (so most requests reach the handler), with a hostile value at any
 * level, missing and extra keys in objects, and wrong types.
 */
export function arbitraryFor(schema: Schema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const useCache = Object.keys(options).length === 0;
  const key = schema as object;
  if (useCache) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  const def = defOf(schema);
  currentHints = options.hints ?? {};
  currentOverrides = options.overrides ?? {};
  try {
    const arb = fc.oneof(
      { weight: options.shaped ?? 4, arbitrary: shaped(def, 0) },
      { weight: options.hostile ?? 1, arbitrary: hostileFor(def) },
    );
    if (useCache) cache.set(key, arb);
    return arb;
  } finally {
    currentHints = {};
    currentOverrides = {};
  }
}

function child(schema: Schema, depth: number, shapedWeight = CHILD_SHAPED): fc.Arbitrary<unknown> {
  if (depth > 8) return hostileJson; // z.lazy cycles
  const def = defOf(schema);
  return fc.oneof(
    { weight: shapedWeight, arbitrary: shaped(def, depth) },
    { weight: CHILD_HOSTILE, arbitrary: hostileFor(def) },
  );
}

/** Hostile values that are wrong for this particular kind, and generic hostile JSON. */
function hostileFor(def: Def): fc.Arbitrary<unknown> {
  let specific: fc.Arbitrary<unknown> | null = null;
  switch (def.type) {
    case 'number':
      specific = hostileNumber(def);
      break;
    case 'string': {
      const { min, max } = stringSpec(def);
      specific = fc.oneof(
        hostileString,
        fc.constantFrom<unknown>(123, true, ['x'], { x: 'y' }),
        ...(Number.isFinite(max) && max < 100_000 ? [fc.constant('y'.repeat(max + 1))] : []),
        ...(min > 0 ? [fc.constant('y'.repeat(min - 1))] : []),
      );
      break;
    }
    case 'enum': {
      const values = Object.values(def.entries as Record<string, string | number>).map(String);
      specific = fc.constantFrom<unknown>(
        ...values.map((v) => v.toUpperCase()),
        ...values.map((v) => ` ${v}`),
        values.join(','),
        values,
        'other',
      );
      break;
    }
    case 'boolean':
      specific = fc.constantFrom<unknown>('true', 'false', 1, 0, 'yes', 'on', '');
      break;
    case 'array':
      specific = fc.constantFrom<unknown>(
        'a',
        { 0: 'a' },
        [[[]]],
        Array.from({ length: 1001 }, () => 'x'),
      );
      break;
    case 'object':
      specific = fc.constantFrom<unknown>('[object Object]', [{}], nested(40, 'object'));
      break;
    default:
      break;
  }
  return specific ? fc.oneof(specific, hostileJson) : hostileJson;
}

function lengthBounds(def: Def): { min: number; max: number } {
  let min = 0;
  let max = Infinity;
  for (const d of checkDefs(def)) {
    if (d.check === 'min_length') min = Math.max(min, d.minimum as number);
    if (d.check === 'max_length') max = Math.min(max, d.maximum as number);
    if (d.check === 'length_equals') min = max = d.length as number;
  }
  return { min, max };
}

type Mutation = { kind: 'none' } | { kind: 'drop'; index: number } | { kind: 'extra'; entries: [string, unknown][] };

const extraKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<string>(...EXTRA_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Mutation>({ kind: 'none' }) },
  { weight: 1, arbitrary: fc.nat().map((index): Mutation => ({ kind: 'drop', index })) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(extraKey, hostileJson), { minLength: 1, maxLength: 3 })
      .map((entries): Mutation => ({ kind: 'extra', entries })),
  },
);

function shapedObject(def: Def, depth: number): fc.Arbitrary<unknown> {
  const shape = def.shape as Record<string, Schema>;
  const keys = Object.keys(shape);
  const hinted = (k: string): fc.Arbitrary<unknown> => {
    const values = Object.hasOwn(currentHints, k) ? currentHints[k] : [];
    const override = Object.hasOwn(currentOverrides, k) ? currentOverrides[k] : null;
    const field = override
      ? fc.oneof(
          { weight: CHILD_SHAPED, arbitrary: override },
          { weight: CHILD_HOSTILE, arbitrary: hostileFor(defOf(shape[k])) },
        )
      : child(shape[k], depth + 1);
    return values.length > 0
      ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...values) }, { weight: 3, arbitrary: field })
      : field;
  };
  const fields = Object.fromEntries(keys.map((k) => [k, hinted(k)]));
  return fc.tuple(fc.record(fields), mutation).map(([value, m]) => {
    // Rebuilt without undefined values, so a missing key is missing (as in JSON) rather than undefined.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) withKey(out, k, v);
    if (m.kind === 'drop' && keys.length > 0) delete out[keys[m.index % keys.length]];
    if (m.kind === 'extra') for (const [k, v] of m.entries) withKey(out, k, v);
    return out;
  });
}

/** `value` with its first string or number leaf (depth first) given a NUL or lone surrogate. */
function spoilFirstLeaf(value: unknown, bad: string): unknown {
  if (typeof value === 'string' || typeof value === 'number') return `${value}${bad}`;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : {};
  if (!Array.isArray(value)) for (const [k, v] of Object.entries(value)) withKey(copy, k, v);
  for (const k of Object.keys(copy)) {
    const spoiled = spoilFirstLeaf(copy[k], bad);
    if (spoiled !== copy[k]) {
      copy[k] = spoiled;
      return copy;
    }
  }
  return value;
}

/**
 * A value as the JSON text a query or form field, or a string in a JSON body, carries it; half the
 * time with a NUL or lone surrogate in its first leaf, which JSON text holds as an escape (`\u0000`).
 */
const asJsonText = (arb: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc
    .tuple(arb, fc.option(fc.constantFrom('\u0000', '\ud800', '\udc00'), { freq: 2 }))
    .map(([v, bad]) => JSON.stringify(bad === null ? v : spoilFirstLeaf(v, bad)) ?? '');

/** Below the top level, an object or record is now and then sent as its JSON text instead. */
const sometimesAsText = (arb: fc.Arbitrary<unknown>, depth: number): fc.Arbitrary<unknown> =>
  depth === 0 ? arb : fc.oneof({ weight: 12, arbitrary: arb }, { weight: 1, arbitrary: asJsonText(arb) });

function shaped(def: Def, depth: number): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'string':
      return shapedString(def);
    case 'number':
      return shapedNumber(def);
    case 'bigint':
      return fc.integer();
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'date':
      return formatted('datetime')!;
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case 'object':
      return sometimesAsText(shapedObject(def, depth), depth);
    case 'record': {
      const keyDef = defOf(def.keyType);
      const keys =
        keyDef.type === 'enum'
          ? fc.constantFrom(...Object.values(keyDef.entries as Record<string, string>).map(String))
          : keyDef.type === 'string' && stringSpec(keyDef).patterns.length > 0
            ? shapedString(keyDef) // names of a pattern (template variables), so values get checked
            : fc.string({ maxLength: 12 });
      return sometimesAsText(fc.dictionary(keys, child(def.valueType, depth + 1), { maxKeys: 4 }), depth);
    }
    case 'array': {
      const { min, max } = lengthBounds(def);
      // an array fails on any one bad element: elements are hostile far more rarely than fields
      const element = child(def.element, depth + 1, ARRAY_ELEMENT_SHAPED);
      const upTo = Math.min(max, min + 4);
      const choices: fc.Arbitrary<unknown[]>[] = [fc.array(element, { minLength: min, maxLength: upTo })];
      if (Number.isFinite(max) && max <= 50) {
        choices.push(fc.array(element, { minLength: max, maxLength: max + 1 }));
      }
      return fc.oneof(...choices);
    }
    case 'tuple': {
      const items = (def.items as Schema[]).map((s) => child(s, depth + 1));
      return fc.tuple(...items);
    }
    case 'union':
      return fc.oneof(...(def.options as Schema[]).map((s) => child(s, depth + 1)));
    case 'intersection':
      return fc
        .tuple(child(def.left, depth + 1), child(def.right, depth + 1))
        .map(([a, b]) =>
          a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)
            ? { ...a, ...b }
            : a,
        );
    case 'optional':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: child(def.innerType, depth) },
      );
    case 'nullable':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 3, arbitrary: child(def.innerType, depth) },
      );
    case 'default':
    case 'prefault':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: child(def.innerType, depth) },
      );
    case 'nonoptional':
    case 'catch':
    case 'readonly':
      return child(def.innerType, depth);
    case 'pipe':
      // A preprocessed field (z.preprocess: a transform, then the schema) takes the schema's values, and
      // the text a query or form field carries them as: an object as its JSON text (template variables),
      // a list joined with commas (channel ids).
      if (defOf(def.in).type === 'transform') {
        const out = defOf(def.out).type;
        const value = child(def.out, depth);
        const asText =
          out === 'record' || out === 'object'
            ? asJsonText(value)
            : out === 'array'
              ? value.map((v) => (Array.isArray(v) ? v.join(',') : v))
              : null;
        return asText ? fc.oneof({ weight: 3, arbitrary: value }, { weight: 1, arbitrary: asText }) : value;
      }
      return child(def.in, depth);
    case 'lazy':
      return child((def.getter as () => Schema)(), depth + 1);
    case 'any':
    case 'unknown':
      return fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileJson);
    default:
      // transform, custom, never and anything newer: whatever it is, try hostile JSON on it
      return hostileJson;
  }
}

/** The fields of an object schema (through optional/default/pipe wrappers), or null for other kinds. */
export function objectShape(schema: Schema): Record<string, Schema> | null {
  let def = defOf(schema);
  for (let i = 0; i < 10; i++) {
    if (def.type === 'object') return def.shape as Record<string, Schema>;
    if (def.type === 'pipe') def = defOf(def.in);
    else if ('innerType' in def) def = defOf(def.innerType);
    else return null;
  }
  return null;
}

// ---------- URLs ----------

/** Path parameters that are not what any id looks like, sent as they are (already URL syntax). */
export const RAW_PATH_PARAMS = [
  'abc',
  '-1',
  '0',
  '1e99',
  '1.5',
  '0x10',
  '%00',
  '%ED%A0%80', // a lone surrogate, as its (invalid) UTF-8 bytes
  '%E0%A4%A', // a truncated escape
  '%',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999999',
  '%20%201',
  '+1',
  '..',
  '%2e%2e',
  '%2F',
  'ｉｄ',
  '__proto__',
  'constructor',
  "1'%20or%20'1'='1",
  'x'.repeat(200),
] as const;

/** Percent-encodes like encodeURIComponent, but writes a lone surrogate as its (invalid) UTF-8 bytes. */
export function encodeLoose(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += encodeURIComponent(s.slice(i, i + 2));
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const bytes = [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      continue;
    }
    out += encodeURIComponent(s[i]);
  }
  return out;
}

function queryValue(v: unknown): string {
  if (typeof v === 'string') return encodeLoose(v);
  if (v === null) return '';
  if (typeof v === 'object') return encodeLoose(JSON.stringify(v) ?? '');
  return encodeLoose(String(v));
}

/**
 * A query string (without `?`) for a generated value: keys repeat for arrays, objects nest as JSON
 * text, undefined values are left out. A value that is not an object becomes the whole query.
 */
export function toQueryString(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return queryValue(value);
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const key = encodeLoose(k);
    if (Array.isArray(v)) for (const item of v) parts.push(`${key}=${queryValue(item)}`);
    else parts.push(`${key}=${queryValue(v)}`);
  }
  return parts.join('&');
}

/** Query-string fragments no encoder would write, appended now and then. */
export const RAW_QUERY_JUNK = [
  '%zz=1',
  'a=%E0%A4%A',
  'a=%ED%A0%80',
  '=',
  '&&&',
  'a[b]=1',
  '__proto__[admin]=1',
  'constructor[prototype][admin]=1',
  'current=1&current=2',
  'pageSize=1e2',
  'pageSize=-0',
  'current=%00',
  `q=${'x'.repeat(10_000)}`,
] as const;
