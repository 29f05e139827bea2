// `--all` streams for as long as the list is. Its live memory is flat (a few pages and a window
// of recent ids, ~15 MB of heap), but V8 lets the old generation grow up to 4× the live size
// between full collections when garbage collection looks cheap, so the peak RSS would creep
// with the length of the run (measured: 124 MiB at 100,000 rows, 175 MiB at 1,000,000).
// Capping the growth factor at 2× keeps the peak flat for a few per cent more GC time. This is
// a process-wide V8 setting that only shapes when full collections run; it is applied only by
// the long streaming commands. A command whose live memory grows with its data (stats over
// hundreds of thousands of groups) caps it lower still.
// node:v8 is loaded when a flag is set, not with the commands that may set one.
const setFlagsFromString = (flags: string) => process.getBuiltinModule('node:v8').setFlagsFromString(flags);

let applied = false;

export function capHeapGrowth(percent = 100): void {
  if (applied) return;
  applied = true;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** A process-wide V8 setting made, then undone; each acts only on a change. */
export function v8Switch(flags: string, undo: string): { set(): void; reset(): void } {
  let on = false;
  return {
    set() {
      if (on) return;
      on = true;
      setFlagsFromString(flags);
    },
    reset() {
      if (!on) return;
      on = false;
      setFlagsFromString(undo);
    },
  };
}

/**
 * The young generation kept at the size it has now. V8 doubles it (up to two 16 MB semi-spaces)
 * once enough objects have survived its collections, which any long run of short-lived objects
 * brings: a bulk check of 20,000 rows peaked at 121 MB, 32 MB of it the young generation, at
 * 88 MB kept. V8 reads the growth factor at each growth; it refuses a factor under 2 only when
 * the process starts (`node --semi-space-growth-factor=1` does nothing), so it is set here, once
 * a run has shown itself long: small runs keep the fewer collections of a larger young generation.
 * Undone (V8's own growth again) once the long run is over, for a process that goes on (the MCP
 * server, a test).
 */
const youngGeneration = v8Switch('--semi-space-growth-factor=1', '--semi-space-growth-factor=2');
export const keepYoungGenerationSmall = (): void => youngGeneration.set();
export const letYoungGenerationGrow = (): void => youngGeneration.reset();
