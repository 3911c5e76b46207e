/**
 * PGlite's own thread (ADR 0068): the embedded database runs here, so its queries (WebAssembly,
 * milliseconds each) never hold the server's thread, where requests and the DJ sites' answers
 * are read. Messages are handled one after another, in the order they came.
 */
import { parentPort } from "node:worker_threads";
import type { PGlite } from "@electric-sql/pglite";
import { createPglite } from "../pglite-create.js";
import { preparedStatements } from "./prepared.js";
import type { FromThread, ThreadError, ToThread } from "./protocol.js";

if (!parentPort) throw new Error("pglite-thread/worker.ts runs as a worker thread");
const port = parentPort;
let client: PGlite | undefined;
let prepared: ReturnType<typeof preparedStatements> | undefined;
let queue: Promise<void> = Promise.resolve();

const leaveAsText = (value: string) => value;

function opened(): PGlite {
  if (!client) throw new Error("the embedded database is not open");
  return client;
}

async function handle(message: ToThread): Promise<unknown> {
  switch (message.type) {
    case "open":
      client = await createPglite(message.options.dir, message.options.loadDataDir, message.options.sharedBuffers);
      if (message.options.prepared) prepared = preparedStatements(client);
      return null;
    case "query": {
      const parsers = Object.fromEntries((message.rawTypes ?? []).map((oid) => [oid, leaveAsText]));
      const options = { rowMode: message.rowMode, parsers };
      const { rows, fields, affectedRows } = prepared ? await prepared.query(message.text, message.params, options) : await opened().query(message.text, message.params, options);
      return { rows, fields, affectedRows };
    }
    case "exec":
      return (await opened().exec(message.text)).map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
    case "close":
      await client?.close();
      client = undefined;
      prepared = undefined;
      return null;
  }
}

/** A database error with the fields PostgreSQL gave it (plain values only: they cross the thread). */
function asThreadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, unknown> = { name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === "function" || (typeof value === "object" && value !== null)) continue;
    fields[key] = value;
  }
  return { message: err.message, fields };
}

port.on("message", (message: ToThread) => {
  queue = queue.then(async () => {
    let answer: FromThread;
    try {
      answer = { id: message.id, ok: true, value: await handle(message) };
    } catch (err) {
      answer = { id: message.id, ok: false, error: asThreadError(err) };
    }
    port.postMessage(answer);
  });
});
