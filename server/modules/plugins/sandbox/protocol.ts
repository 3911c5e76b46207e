/**
 * Messages between the server and a sandbox worker (issue 21). Everything that crosses is
 * structured-cloneable data; a plugin's answers are JSON-safe values it returned.
 */

export type SandboxFailureKind =
  | "cpu" // ran past its CPU time per call
  | "memory" // past its memory or stack limit
  | "timeout" // a call did not settle in time (never resolving, waiting forever)
  | "plugin" // the plugin threw (an Error or any other value)
  | "missing" // the plugin has no such method
  | "invalid" // the plugin's code or answer is unusable
  | "crash" // the worker died or the instance was reset under the call
  | "busy"; // the call's time ran out before the worker started it: our queue, not the plugin

export interface SandboxLimits {
  /** QuickJS heap of one plugin. */
  memoryBytes: number;
  stackBytes: number;
  /** Guest CPU time of one call (all its slices). */
  callCpuMs: number;
  /** Guest CPU time of loading the plugin's code. */
  loadCpuMs: number;
  /** Wall time of one call, fetches included. */
  callTimeoutMs: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
  callCpuMs: 1_000,
  loadCpuMs: 2_000,
  callTimeoutMs: 10_000,
};

/** What a plugin asks of the network (guest/axios.js). */
export interface GuestFetchRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: { text?: string; base64?: string };
  timeout?: number;
  maxRedirects?: number;
  /** `responseType: "arraybuffer"`: the bytes, not decoded text. */
  binary?: boolean;
  encoding?: string;
}

/** An answer for the plugin: `text`, or `bytes` (decoded in the worker unless the plugin asked for bytes). */
export interface FetchAnswer {
  meta: { status: number; url: string; headers: Record<string, string> } | { error: string; code: string };
  text?: string;
  bytes?: ArrayBuffer;
}

export type ToWorker =
  | { type: "load"; id: number; instance: string; code: string; variables: Record<string, string>; limits: SandboxLimits }
  | { type: "call"; id: number; instance: string; method: string; args: unknown[] }
  /** The server gave up on a call that had not started: the worker drops it. */
  | { type: "cancel"; id: number }
  | { type: "unload"; instance: string }
  | { type: "fetched"; fetchId: number; answer: FetchAnswer }
  | { type: "memory"; id: number };

export type FromWorker =
  | { type: "loaded"; id: number; exports: Record<string, unknown>; heapBytes: number }
  /** The worker begins the call (the plugin's code runs from now on). */
  | { type: "started"; id: number }
  | { type: "result"; id: number; value: unknown }
  | { type: "failed"; id: number; kind: SandboxFailureKind; message: string }
  | { type: "fetch"; fetchId: number; instance: string; request: GuestFetchRequest }
  | { type: "log"; instance: string; level: string; message: string }
  | { type: "reset"; instance: string; kind: SandboxFailureKind; message: string }
  | { type: "memory"; id: number; instances: Record<string, number> };
