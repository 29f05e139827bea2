// The CLI's clock on a sandbox's manual clock: a sleep moves sandbox time forward (publishing
// what falls due), so tests of waits and retries never sleep for real. The demo runs on the
// same thing, so it lives with the demo.
export { advancingClock } from '../../src/demo/clock.js';
