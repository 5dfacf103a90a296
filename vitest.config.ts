import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Native addons (better-sqlite3, node-llama-cpp) are safest in forked processes.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // In CI, also write a JSON report so .ci/run can print a plain "N passed, N failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".ci-results/vitest.json" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
