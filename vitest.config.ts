import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Vite does not resolve chrono-node's "./*" subpath export (src imports the English
    // parser alone, "chrono-node/en", to start fast); Node does: point Vite at Node's answer.
    alias: [{ find: /^chrono-node\/en$/, replacement: fileURLToPath(import.meta.resolve("chrono-node/en")) }],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Native addons (better-sqlite3, node-llama-cpp) are safest in forked processes.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // In CI, also write a JSON report so .ci/run can print a plain "N passed, N failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".ci-results/vitest.json" },
    // An ordinary user's shell, whoever runs the tests: an editor, a pager and an askpass
    // helper set, no global git identity or config, the C locale. membank must work there.
    env: {
      EDITOR: "vi",
      VISUAL: "vi",
      PAGER: "less",
      GIT_PAGER: "less",
      GIT_ASKPASS: "/bin/true",
      SSH_ASKPASS: "/bin/true",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      LANG: "C",
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
