import { readlinkSync } from "node:fs";
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { PluginInstance, SandboxFailure } from "./instance.js";
import type { FetchAnswer, FromWorker, GuestFetchRequest, SandboxLimits, ToWorker } from "./protocol.js";

/**
 * A sandbox worker thread (issue 21): holds plugin instances (each its own QuickJS engine) and
 * runs their calls off the server's event loop. It has no network of its own use: a plugin's
 * requests go to the server as `fetch` messages and come back as `fetched`.
 */

const port = parentPort!;

/**
 * Plugins are background work next to serving pages: this thread yields the CPU to the server's
 * own thread when both want it (Linux: a thread's nice value is its own, named by its thread id).
 * Elsewhere it keeps the default priority.
 */
function yieldToTheServer(): void {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(threadId) && threadId > 0) os.setPriority(threadId, 10);
  } catch {
    // No /proc (not Linux) or not permitted: the default priority.
  }
}
yieldToTheServer();
interface Entry {
  instance: PluginInstance;
  code: string;
  variables: Record<string, string>;
  limits: SandboxLimits;
  /** Set while a fresh engine is being made after a limit was hit: calls wait for it. */
  resetting?: Promise<void>;
}
const instances = new Map<string, Entry>();
const fetches = new Map<number, (answer: FetchAnswer) => void>();
/** Calls the server gave up on before they started (a `cancel` that came while they waited). */
const cancelled = new Set<number>();
let nextFetch = 1;
const send = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer ?? []);

function hooksFor(name: string) {
  return {
    fetch(request: GuestFetchRequest): Promise<FetchAnswer> {
      const fetchId = nextFetch++;
      return new Promise<FetchAnswer>((resolve) => {
        fetches.set(fetchId, resolve);
        send({ type: "fetch", fetchId, instance: name, request });
      });
    },
    log(level: string, message: string) {
      send({ type: "log", instance: name, level, message });
    },
  };
}

async function load(message: Extract<ToWorker, { type: "load" }>): Promise<void> {
  instances.get(message.instance)?.instance.dispose();
  instances.delete(message.instance);
  try {
    const { instance, exports } = await PluginInstance.create(message.code, message.variables, message.limits, hooksFor(message.instance));
    watch(message.instance, instance);
    instances.set(message.instance, { instance, code: message.code, variables: message.variables, limits: message.limits });
    send({ type: "loaded", id: message.id, exports, heapBytes: instance.memoryUsed() });
  } catch (err) {
    const failure = err instanceof SandboxFailure ? err : new SandboxFailure("invalid", err instanceof Error ? err.message : String(err));
    send({ type: "failed", id: message.id, kind: failure.kind, message: failure.message });
  }
}

/** A limit hit outside a call (a timer's callback looping): the instance is started afresh. */
function watch(name: string, instance: PluginInstance): void {
  instance.onFatal = (failure) => void reset(name, failure, true);
}

/** A fresh engine for `name`; `report`: the limit was hit outside a call, so no call failure told the server. */
function reset(name: string, failure: SandboxFailure, report: boolean): Promise<void> {
  const kept = instances.get(name);
  if (!kept) return Promise.resolve();
  if (kept.resetting) return kept.resetting;
  kept.instance.dispose();
  if (report) send({ type: "reset", instance: name, kind: failure.kind, message: failure.message });
  kept.resetting = PluginInstance.create(kept.code, kept.variables, kept.limits, hooksFor(name)).then(
    ({ instance }) => {
      watch(name, instance);
      if (instances.get(name) === kept) instances.set(name, { ...kept, instance, resetting: undefined });
      else instance.dispose();
    },
    () => {
      if (instances.get(name) === kept) instances.delete(name);
    },
  );
  return kept.resetting;
}

/**
 * Calls begin one per loop turn, in the order they came: between two beginnings this thread
 * reads its messages, so a call whose time ran out while others held the thread (the server
 * sent its `cancel`) is dropped instead of run late for nobody.
 */
const toBegin: Extract<ToWorker, { type: "call" }>[] = [];
let beginScheduled = false;
function queueCall(message: Extract<ToWorker, { type: "call" }>): void {
  toBegin.push(message);
  if (!beginScheduled) {
    beginScheduled = true;
    setImmediate(beginNext);
  }
}
function beginNext(): void {
  const message = toBegin.shift();
  if (toBegin.length > 0) setImmediate(beginNext);
  else beginScheduled = false;
  if (message && !cancelled.delete(message.id)) void call(message);
}

async function call(message: Extract<ToWorker, { type: "call" }>): Promise<void> {
  let kept = instances.get(message.instance);
  if (kept?.resetting) {
    await kept.resetting;
    kept = instances.get(message.instance);
  }
  if (!kept) return send({ type: "failed", id: message.id, kind: "crash", message: "plugin is not loaded" });
  if (cancelled.delete(message.id)) return;
  send({ type: "started", id: message.id });
  try {
    const value = await kept.instance.call(message.method, message.args);
    send({ type: "result", id: message.id, value });
  } catch (err) {
    const failure = err instanceof SandboxFailure ? err : new SandboxFailure("plugin", err instanceof Error ? err.message : String(err));
    send({ type: "failed", id: message.id, kind: failure.kind, message: failure.message });
    // Past a limit the engine's state is not to be trusted: the next call meets a fresh one.
    if (failure.kind === "cpu" || failure.kind === "memory") void reset(message.instance, failure, false);
  } finally {
    // A `cancel` that crossed the `started` message is of no use any more.
    cancelled.delete(message.id);
  }
}

port.on("message", (message: ToWorker) => {
  switch (message.type) {
    case "load":
      void load(message);
      break;
    case "call":
      queueCall(message);
      break;
    case "cancel":
      cancelled.add(message.id);
      break;
    case "unload":
      instances.get(message.instance)?.instance.dispose();
      instances.delete(message.instance);
      break;
    case "fetched": {
      const resolve = fetches.get(message.fetchId);
      fetches.delete(message.fetchId);
      resolve?.(message.answer);
      break;
    }
    case "memory": {
      const out: Record<string, number> = {};
      for (const [name, { instance }] of instances) out[name] = instance.memoryUsed();
      send({ type: "memory", id: message.id, instances: out });
      break;
    }
  }
});
