import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@contracts": fileURLToPath(new URL("./contracts", import.meta.url)) };

/** Unit files that measure their own process (heap growth): each in a fresh process of its own. */
const UNIT_ALONE = ["server/modules/admin-export/export-large.test.ts"];

/**
 * End-to-end files that drive no browser: they start, kill and restart servers (or a cluster) as
 * child processes and mostly wait on them. They run one at a time beside the browser files,
 * which also run one at a time.
 */
const E2E_PROCESSES = [
  "e2e/backup.test.ts",
  "e2e/cluster-crash.test.ts",
  "e2e/cluster-shared.test.ts",
  "e2e/coin-crash.test.ts",
  "e2e/crash-safety.test.ts",
  "e2e/hostile-input.test.ts",
  "e2e/operations.test.ts",
  "e2e/view-crash.test.ts",
];

const e2eOptions = {
  environment: "node",
  testTimeout: 60_000,
  hookTimeout: 180_000,
  // A state after an action is polled for (expect.poll): 1 s, the default, ran out on a
  // busy 2-core machine before an admin screen's first answer (issue 23, point 11).
  expect: { poll: { timeout: 10_000 } },
  // One file at a time in each of the two e2e projects: the machine has two cores.
  fileParallelism: false,
  sequence: { groupOrder: 2 },
  // A failed browser test reports what its pages showed (address, dialogs, a screenshot).
  setupFiles: "e2e/failure-report.ts",
} as const;

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "contracts/**/*.test.ts", "web/**/*.test.{ts,tsx}"],
          exclude: ["**/node_modules/**", ...UNIT_ALONE],
          environment: "node",
          // Both cores (the default left one idle on a 2-core machine), and the server's modules
          // imported once per worker rather than once per file: importing them took ~4 s a file,
          // half of the unit phase's 29 minutes. Tests share no module state (ADR 0058).
          maxWorkers: 2,
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "unit-alone",
          include: UNIT_ALONE,
          environment: "node",
          maxWorkers: 1,
          isolate: true,
          testTimeout: 300_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve: { alias },
        test: { name: "e2e", include: ["e2e/**/*.test.ts"], exclude: ["**/node_modules/**", ...E2E_PROCESSES], ...e2eOptions },
      },
      {
        resolve: { alias },
        test: { name: "e2e-processes", include: E2E_PROCESSES, ...e2eOptions },
      },
    ],
  },
});
