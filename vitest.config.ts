import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration tests share one Mosquitto; each uses its own base topic, so files may run in parallel.
    pool: 'forks',
    // Every file removes the folders its tests made with tempDir() (test/helpers/temp.ts).
    setupFiles: ['test/helpers/temp-cleanup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'broker',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          // Probes MQTT_URL once: no broker, one line saying how to start one, and no test runs.
          globalSetup: ['test/helpers/broker-setup.ts'],
        },
      },
    ],
  },
});
