import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@contracts": fileURLToPath(new URL("./contracts", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "contracts/**/*.test.ts", "web/**/*.test.{ts,tsx}"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A state after an action is polled for (expect.poll): 1 s, the default, ran out on a
          // busy 2-core machine before an admin screen's first answer (issue 23, point 11).
          expect: { poll: { timeout: 10_000 } },
          // One browser and one site at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
