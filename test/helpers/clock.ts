// The fake clock of the tests: the benchmark's one (src/bench/fake-clock.ts), kept out of the bridge.
export { FakeClock } from '../../src/bench/fake-clock.js';
