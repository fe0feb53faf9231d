import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration tests share one Mosquitto; each uses its own base topic, so files may run in parallel.
    pool: 'forks',
  },
});
