// V8's optimizing compiler (TurboFan) pays for itself in a long run, not in a short one: its
// compilations (on other threads, but the same two cores) cost a bulk check of 1,000 rows
// ~15 ms of its ~150 ms of CPU and were done too late to repay it; Maglev, the faster tier below
// it, still optimizes. A command whose run may be short or long turns it off at the start and on
// again once the run has shown itself long (a 20,000-row check is slower without it all along).
// A process-wide V8 setting, applied at run time as output/heap.ts applies its own.

import { v8Switch } from '../output/heap.js';

const turbofan = v8Switch('--no-turbofan', '--turbofan');
/** TurboFan off for now (functions already optimized stay so). */
export const holdOptimizingCompiler = (): void => turbofan.set();
/** TurboFan on again, if it was held. */
export const releaseOptimizingCompiler = (): void => turbofan.reset();
