/**
 * A worker thread's entry file: its TypeScript source under tsx (tests, `npm run dev`), or the
 * file the server build made of it (`scripts/build-server.ts`) under `npm start`.
 */
export function workerEntry(caller: ImportMeta, source: string, built: string): { url: URL; execArgv: string[] } {
  if (caller.filename.endsWith(".ts")) return { url: new URL(source, caller.url), execArgv: ["--import", "tsx"] };
  return { url: new URL(`file://${caller.dirname}/${built}`), execArgv: [] };
}
