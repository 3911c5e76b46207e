// Prints one closing line for the whole suite ("Tests: N passed, N failed, N skipped") from
// vitest's JSON reports; exits 1 when a report is missing or no test ran.
import { existsSync, readFileSync } from "node:fs";

let passed = 0, failed = 0, skipped = 0, missing = false;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) { console.error(`missing test report ${file}`); missing = true; continue; }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(missing || failed > 0 || passed === 0 ? 1 : 0);
