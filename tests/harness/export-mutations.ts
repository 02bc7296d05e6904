import fc from 'fast-check';

/** A step into a JSON value: an object key or an array index. */
type Step = string | number;

/** Every path inside a JSON value (the root excluded), depth first. */
const pathsOf = (value: unknown, at: Step[] = []): Step[][] => {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...at, i], ...pathsOf(v, [...at, i])]);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...pathsOf(v, [...at, k])]);
  return [];
};

interface Mutation {
  pick: number;
  kind: 'replace' | 'delete' | 'duplicate' | 'stringify';
  value: unknown;
}

/**
 * A fresh copy of a JSON value, own `__proto__` keys included (as JSON.parse makes them from a
 * file). Each use gets its own: a value shared between files (or placed inside itself) once made a
 * later file cyclic, and walking it overflowed the stack.
 */
const fresh = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** Hostile and confusing values: types that are almost right, huge numbers, prototype keys, markup. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc
    .constantFrom(
      'null',
      '""',
      '-1',
      '0',
      '1e308',
      String(Number.MAX_SAFE_INTEGER),
      '"__proto__"',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '"<img src=x onerror=alert(1)>"',
      '"javascript:alert(1)"',
      '"/uploads/../../etc/passwd"',
      '"video-1"',
      '"branch"',
      JSON.stringify('x'.repeat(5000)),
      '[]',
      '{}',
    )
    .map((text) => JSON.parse(text) as unknown),
);

const mutation: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('replace', 'delete', 'duplicate', 'stringify'),
  value: nasty,
});

const apply = (root: unknown, paths: Step[][], m: Mutation): unknown => {
  if (!paths.length) return fresh(m.value);
  const path = paths[m.pick % paths.length]!;
  let parent = root as Record<Step, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<Step, unknown>;
  const last = path[path.length - 1]!;
  if (m.kind === 'replace') parent[last] = fresh(m.value);
  else if (m.kind === 'stringify') parent[last] = JSON.stringify(parent[last]);
  else if (m.kind === 'duplicate' && Array.isArray(parent)) parent.splice(Number(last), 0, structuredClone(parent[Number(last)]));
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return root;
};

/**
 * An export file with one to four mutations anywhere in it (replaced by hostile values, deleted,
 * duplicated, or turned into a string), or sometimes a value that is no export at all.
 */
export const mutatedExport = (base: unknown): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 1, arbitrary: nasty.map(fresh) },
    {
      weight: 9,
      arbitrary: fc
        .array(mutation, { minLength: 1, maxLength: 4 })
        .map((mutations) => mutations.reduce<unknown>((file, m) => apply(file, pathsOf(file), m), structuredClone(base))),
    },
  );
