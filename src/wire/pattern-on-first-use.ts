// V8 parses a regular expression where it is created, and a Unicode property class (\p{L},
// \p{Extended_Pictographic}) is built from ICU's tables then: ~1-2 ms a pattern. One made at a
// module's top level costs every command that loads the module, whatever text it then reads.

/** The pattern, made on the first call and kept. */
export function patternOnFirstUse(make: () => RegExp): () => RegExp {
  let pattern: RegExp | undefined;
  return () => (pattern ??= make());
}
