import { defineConfig } from 'vitest/config';

// Four projects: pure logic, HTTP against the local host on DynamoDB Local, CDK assertions,
// and `npm start` run as a user runs it (signals, the README walkthrough).
// Logs and EMF metrics are silenced: tests read answers and the table, not stdout.
const env = { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

export default defineConfig({
  test: {
    env,
    // `npm test` runs with --coverage: a summary in the output, and the run fails when the
    // domain library's branch coverage falls under 90 % (type-only files are not code).
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts', 'functions/**/*.ts', 'infra/local/**/*.ts'],
      exclude: ['**/*.d.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // The summary also when a test fails: CI output then says both what failed and what is covered.
      reportOnFailure: true,
      thresholds: { 'shared/**': { branches: 90 } },
    },
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], env } },
      {
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts', 'test/peers/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          env,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], env, testTimeout: 180_000, hookTimeout: 180_000 } },
      // `npm start` itself, as a user runs it (its own DynamoDB Local, data directory and port).
      { test: { name: 'local', include: ['test/local/**/*.test.ts'], env, testTimeout: 300_000, hookTimeout: 120_000 } },
    ],
  },
});
