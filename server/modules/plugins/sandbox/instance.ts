import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from "quickjs-emscripten-core";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import iconv from "iconv-lite";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { decodeBody } from "../../sources/fetch/decode.js";
import { DomBridge } from "./dom-bridge.js";
import { isSandboxLibrary, librarySource } from "./libraries.js";
import type { FetchAnswer, GuestFetchRequest, SandboxFailureKind, SandboxLimits } from "./protocol.js";

/**
 * One plugin in its own QuickJS engine (issue 21): its own WASM module instance, so its heap is
 * apart from every other plugin's and is freed whole when the instance is dropped. Bounded by a
 * memory limit (QuickJS's allocator), a stack limit and a CPU budget per call (the interrupt
 * handler). The plugin reaches the world only through the functions of `__host` made here.
 */

/**
 * QuickJS's WebAssembly, compiled once per thread. Each instance is still a new instance of it,
 * with a memory of its own; what is shared is the compiled code, which V8 would otherwise compile
 * for every plugin loaded and free with it (that churn of WebAssembly code is what nodejs/node#64500
 * aborts in: docs/decisions/0068).
 */
let compiledQuickJS: Promise<WebAssembly.Module> | undefined;
const quickJS = newVariant(variant, {
  wasmModule: () => (compiledQuickJS ??= readFile(createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")).then((bytes) => WebAssembly.compile(bytes))),
});

const GUEST_FILES = ["prelude.js", "url.js", "axios.js", "cheerio.js"];
const guestSources = GUEST_FILES.map((name) => ({ name, source: readFileSync(new URL(`./guest/${name}`, import.meta.url), "utf8") }));

export class SandboxFailure extends Error {
  constructor(
    readonly kind: SandboxFailureKind,
    message: string,
  ) {
    super(message);
  }
}

export interface InstanceHooks {
  fetch(request: GuestFetchRequest): Promise<FetchAnswer>;
  log(level: string, message: string): void;
}

const MAX_RESULT_CHARS = 4 * 1024 * 1024;
/** Answers' bodies kept on this side, so a page handed back to cheerio is not copied out again. */
const BODIES_KEPT = 8;

/**
 * A string into the engine through Node's native UTF-8 encoder: quickjs-emscripten's own
 * newString encodes in a JavaScript loop, the main cost of handing a 100 KB page to a plugin.
 */
function guestString(ctx: QuickJSContext, text: string): QuickJSHandle {
  if (text.length < 1024) return ctx.newString(text);
  const inner = ctx as unknown as {
    module: { _malloc(n: number): number; _free(p: number): void; HEAPU8: Uint8Array };
    ffi: { QTS_NewString(ctx: unknown, ptr: number): number };
    ctx: { value: unknown };
    memory: { heapValueHandle(ptr: number): QuickJSHandle };
  };
  const bytes = Buffer.from(text, "utf8");
  const ptr = inner.module._malloc(bytes.length + 1);
  try {
    inner.module.HEAPU8.set(bytes, ptr);
    inner.module.HEAPU8[ptr + bytes.length] = 0;
    return inner.memory.heapValueHandle(inner.ffi.QTS_NewString(inner.ctx.value, ptr));
  } finally {
    inner.module._free(ptr);
  }
}
const MAX_LOG_CHARS = 2_000;

/**
 * CPU time of this thread (ms): what a plugin's budget counts. Its wall time would also count the
 * time the worker (at nice 10) waited for a core on a busy machine, and cut healthy calls short.
 */
const threadCpuMs = (): number => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

export class PluginInstance {
  private module!: QuickJSWASMModule;
  private runtime!: QuickJSRuntime;
  private context!: QuickJSContext;
  private readonly dom = new DomBridge();
  private readonly bodies = new Map<number, string>();
  private nextBody = 1;
  private cpuUsed = 0;
  private sliceStart = 0;
  /** Guest CPU already used when each call in flight started: the oldest bounds the slice. */
  private readonly callsInFlight = new Map<number, number>();
  private nextCall = 1;
  private interruptedBy: SandboxFailureKind | null = null;
  /** Calls waiting on the engine: told when it is dropped under them. */
  private readonly waiting = new Set<(failure: SandboxFailure) => void>();
  disposed = false;

  private constructor(
    private readonly limits: SandboxLimits,
    private readonly hooks: InstanceHooks,
  ) {}

  static async create(code: string, variables: Record<string, string>, limits: SandboxLimits, hooks: InstanceHooks): Promise<{ instance: PluginInstance; exports: Record<string, unknown> }> {
    const instance = new PluginInstance(limits, hooks);
    instance.module = await newQuickJSWASMModuleFromVariant(quickJS);
    instance.runtime = instance.module.newRuntime();
    instance.runtime.setMemoryLimit(limits.memoryBytes);
    instance.runtime.setMaxStackSize(limits.stackBytes);
    instance.runtime.setInterruptHandler(() => instance.shouldInterrupt());
    instance.context = instance.runtime.newContext();
    try {
      instance.installHost();
      for (const { name, source } of guestSources) instance.evalInGuest(source, name, limits.loadCpuMs);
      instance.evalInGuest(`__setVariables(${JSON.stringify(JSON.stringify(variables))})`, "variables", limits.loadCpuMs);
      const wrapped = `(function(){var module={exports:{}};var exports=module.exports;(function(module,exports,require){${code}\n})(module,exports,require);globalThis.__plugin=module.exports&&module.exports.default&&!module.exports.platform?module.exports.default:module.exports;})()`;
      instance.evalInGuest(wrapped, "plugin.js", limits.loadCpuMs);
      const exports = instance.describeExports();
      return { instance, exports };
    } catch (err) {
      instance.dispose();
      throw err;
    }
  }

  private shouldInterrupt(): boolean {
    if (this.interruptedBy) return true;
    // Wall time bounds CPU time from above and costs nothing to read: only past the limit is
    // the thread's own CPU time asked, so a thread kept waiting for a core is not cut short.
    // (A slice starved that long is the host's watchdog's concern: a call past its time limit
    // probes the worker, and one that cannot answer is replaced.)
    if (performance.now() - this.sliceStart <= this.sliceLimit) return false;
    if (threadCpuMs() - this.sliceStartCpu > this.sliceLimit) {
      this.interruptedBy = "cpu";
      return true;
    }
    return false;
  }

  private sliceLimit = 0;
  private sliceStartCpu = 0;

  /** Runs guest code under the CPU budget left to the oldest call in flight (or `budgetMs`). */
  private enter<T>(budgetMs: number, run: () => T): T {
    let limit = budgetMs;
    for (const startedAt of this.callsInFlight.values()) limit = Math.min(limit, this.limits.callCpuMs - (this.cpuUsed - startedAt));
    this.sliceLimit = Math.max(0, limit);
    this.interruptedBy = null;
    this.sliceStart = performance.now();
    this.sliceStartCpu = threadCpuMs();
    try {
      return run();
    } finally {
      this.cpuUsed += threadCpuMs() - this.sliceStartCpu;
      // An interrupt inside a promise job only rejects that job's promise: remember it here.
      if (this.interruptedBy) this.tripped = new SandboxFailure("cpu", `plugin used more than its CPU time (${this.limits.callCpuMs} ms a call)`);
    }
  }

  /** A limit hit in some slice: the engine is not to be used again. */
  private tripped: SandboxFailure | null = null;

  private failureOf(error: QuickJSHandle): SandboxFailure {
    const dumped = this.context.dump(error) as { name?: string; message?: string } | string;
    error.dispose();
    const message = typeof dumped === "object" && dumped ? `${dumped.name ?? "Error"}: ${dumped.message ?? ""}` : String(dumped);
    return this.classify(message);
  }

  private classify(message: string): SandboxFailure {
    if (this.tripped || this.interruptedBy === "cpu" || /^InternalError: interrupted/u.test(message)) return new SandboxFailure("cpu", `plugin used more than its CPU time (${this.limits.callCpuMs} ms a call)`);
    if (/^InternalError: out of memory/u.test(message)) return new SandboxFailure("memory", `plugin used more than its memory (${Math.round(this.limits.memoryBytes / 1048576)} MB)`);
    if (/^(InternalError|RangeError): (stack overflow|Maximum call stack)/u.test(message)) return new SandboxFailure("memory", "plugin overflowed its stack");
    return new SandboxFailure("plugin", message.slice(0, 500));
  }

  private evalInGuest(source: string, filename: string, budgetMs: number): void {
    const result = this.enter(budgetMs, () => this.context.evalCode(source, filename));
    if (result.error) throw this.failureOf(result.error);
    result.value.dispose();
    this.drain();
  }

  /** Runs promise jobs until none is left (each under the CPU budget). */
  private drain(): void {
    for (;;) {
      if (this.disposed) return;
      if (this.tripped) throw this.tripped;
      const result = this.enter(this.limits.callCpuMs, () => this.runtime.executePendingJobs());
      if (this.tripped) throw this.tripped;
      if (result.error) {
        const failure = this.failureOf(result.error);
        if (failure.kind !== "plugin") throw failure;
        continue;
      }
      const ran = result.value;
      if (ran === 0) return;
    }
  }

  private describeExports(): Record<string, unknown> {
    const result = this.enter(this.limits.loadCpuMs, () =>
      this.context.evalCode(`(function(p){var o={};for(var k in p){var v=p[k];o[k]=typeof v==="function"?"[function]":v}return JSON.stringify(o)})(globalThis.__plugin||{})`),
    );
    if (result.error) throw this.failureOf(result.error);
    const json = this.context.getString(result.value);
    result.value.dispose();
    if (json.length > 256 * 1024) throw new SandboxFailure("invalid", "plugin's exported fields are too large");
    return JSON.parse(json) as Record<string, unknown>;
  }

  private installHost(): void {
    const ctx = this.context;
    const host = ctx.newObject();
    const fn = (name: string, impl: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) => {
      const handle = ctx.newFunction(name, impl);
      ctx.setProp(host, name, handle);
      handle.dispose();
    };
    fn("call", (op, payload) => ctx.newString(this.syncCall(ctx.getString(op), ctx.getString(payload))));
    // A page's HTML goes to the parser as it is: no JSON escaping of 100 KB in the interpreter.
    fn("domLoad", (html, xml, bodyId) => {
      try {
        // A body this side still holds (the guest says which): no copy out of the engine.
        const kept = this.bodies.get(ctx.getNumber(bodyId));
        return ctx.newNumber(this.dom.load(kept ?? ctx.getString(html), ctx.dump(xml) === true));
      } catch (err) {
        return ctx.newString(err instanceof Error ? err.message : String(err));
      }
    });
    fn("log", (level, message) => {
      this.hooks.log(ctx.getString(level), ctx.getString(message).slice(0, MAX_LOG_CHARS));
      return undefined;
    });
    fn("hasLib", (name) => (isSandboxLibrary(ctx.getString(name)) ? ctx.true : ctx.false));
    fn("lib", (name) => ctx.newString(librarySource(ctx.getString(name))));
    fn("sleep", (ms) => {
      const deferred = ctx.newPromise();
      const wait = Math.min(ctx.getNumber(ms), this.limits.callTimeoutMs);
      setTimeout(() => {
        if (this.disposed) return;
        deferred.resolve(ctx.undefined);
        deferred.dispose();
        this.safeDrain();
      }, wait);
      return deferred.handle;
    });
    fn("fetch", (request) => {
      const deferred = ctx.newPromise();
      let parsed: GuestFetchRequest;
      try {
        parsed = JSON.parse(ctx.getString(request)) as GuestFetchRequest;
      } catch {
        parsed = { url: "", method: "GET" };
      }
      this.hooks.fetch(parsed).then((answer) => {
        if (this.disposed) return;
        // Text is decoded here, off the server's thread, by the page's charset (GBK pages too).
        if (answer.bytes && !parsed.binary && "status" in answer.meta) {
          const contentType = Object.entries(answer.meta.headers).find(([key]) => key.toLowerCase() === "content-type")?.[1];
          answer = { meta: answer.meta, text: decodeBody(Buffer.from(answer.bytes), contentType, parsed.encoding) };
        }
        const result = ctx.newObject();
        let bodyId = 0;
        if (!answer.bytes && (answer.text?.length ?? 0) >= 1024) {
          bodyId = this.nextBody++;
          this.bodies.set(bodyId, answer.text!);
          if (this.bodies.size > BODIES_KEPT) this.bodies.delete(this.bodies.keys().next().value!);
        }
        const meta = ctx.newString(JSON.stringify({ ...answer.meta, bodyId }));
        ctx.setProp(result, "meta", meta);
        meta.dispose();
        const body = answer.bytes ? ctx.newArrayBuffer(answer.bytes) : guestString(ctx, answer.text ?? "");
        ctx.setProp(result, "body", body);
        body.dispose();
        deferred.resolve(result);
        result.dispose();
        deferred.dispose();
        this.safeDrain();
      });
      return deferred.handle;
    });
    ctx.setProp(ctx.global, "__host", host);
    host.dispose();
  }

  private syncCall(op: string, payloadJson: string): string {
    try {
      const payload = JSON.parse(payloadJson) as unknown;
      return JSON.stringify({ value: this.hostOperation(op, payload) });
    } catch (err) {
      return JSON.stringify({ error: err instanceof Error ? err.message : String(err) });
    }
  }

  private hostOperation(op: string, payload: unknown): unknown {
    switch (op) {
      case "dom":
        return this.dom.run(payload as Record<string, unknown>);
      case "url": {
        const { input, base, set } = payload as { input: string; base?: string; set?: [string, string] };
        const url = new URL(input, base);
        if (set) (url as unknown as Record<string, string>)[set[0]] = set[1];
        const { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash } = url;
        return { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash };
      }
      case "atob":
        return Buffer.from(String(payload), "base64").toString("latin1");
      case "btoa":
        return Buffer.from(String(payload), "latin1").toString("base64");
      case "decode": {
        const { encoding, base64 } = payload as { encoding: string; base64: string };
        if (!iconv.encodingExists(encoding)) throw new Error(`unknown encoding ${encoding}`);
        return iconv.decode(Buffer.from(base64, "base64"), encoding);
      }
      default:
        throw new Error(`unknown host operation ${op}`);
    }
  }

  private safeDrain(): void {
    try {
      this.drain();
    } catch (err) {
      this.onFatal?.(err instanceof SandboxFailure ? err : new SandboxFailure("plugin", String(err)));
    }
  }

  /** Set by the worker: a limit hit outside a call's own slice (a timer, a fetch callback). */
  onFatal?: (failure: SandboxFailure) => void;

  /** Calls `method` of the plugin with JSON arguments; resolves with its JSON-safe answer. */
  async call(method: string, args: unknown[]): Promise<unknown> {
    const ctx = this.context;
    const id = this.nextCall++;
    this.callsInFlight.set(id, this.cpuUsed);
    try {
      const invoke = this.enter(this.limits.callCpuMs, () =>
        ctx.evalCode(
          `(async function(){var p=globalThis.__plugin;var f=p&&p[${JSON.stringify(method)}];if(typeof f!=="function")return JSON.stringify({missing:true});try{var v=await f.apply(p,JSON.parse(${JSON.stringify(JSON.stringify(args))}));return JSON.stringify({ok:true,value:v===undefined?null:v})}catch(e){var m;try{m=e instanceof Error?(e.name+": "+e.message):typeof e==="string"?e:JSON.stringify(e)}catch(_){m="a value that cannot be shown"}return JSON.stringify({ok:false,thrown:String(m).slice(0,500)})}})()`,
          "call.js",
        ),
      );
      if (invoke.error) throw this.failureOf(invoke.error);
      const settled = ctx.resolvePromise(invoke.value);
      invoke.value.dispose();
      this.drain();
      const outcome = await new Promise<Awaited<typeof settled>>((resolve, reject) => {
        this.waiting.add(reject);
        settled.then(resolve, reject).finally(() => this.waiting.delete(reject));
      });
      if (this.disposed) throw new SandboxFailure("crash", "plugin instance was reset");
      if (this.tripped) throw this.tripped;
      if (outcome.error) throw this.failureOf(outcome.error);
      const json = ctx.getString(outcome.value);
      outcome.value.dispose();
      if (json.length > MAX_RESULT_CHARS) throw new SandboxFailure("invalid", "plugin's answer is too large");
      const answer = JSON.parse(json) as { missing?: true; ok?: boolean; value?: unknown; thrown?: string };
      if (answer.missing) throw new SandboxFailure("missing", `plugin has no ${method}`);
      if (!answer.ok) throw this.classify(answer.thrown ?? "plugin failed");
      return answer.value;
    } finally {
      this.callsInFlight.delete(id);
      // Parsed pages live as long as the calls that made them: a page's tree is several times its size.
      if (this.callsInFlight.size === 0) {
        this.dom.clear();
        this.bodies.clear();
      }
    }
  }

  /** Bytes of the plugin's QuickJS heap in use. */
  memoryUsed(): number {
    const usage = this.runtime.computeMemoryUsage();
    const used = (this.context.dump(usage) as { memory_used_size: number }).memory_used_size;
    usage.dispose();
    return used;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.dom.clear();
    this.bodies.clear();
    for (const reject of this.waiting) reject(new SandboxFailure("crash", "plugin instance was reset"));
    this.waiting.clear();
    try {
      this.context?.dispose();
      this.runtime?.dispose();
    } catch {
      // A runtime left with live objects (a call cut short) asserts on dispose; the module goes anyway.
    }
  }
}
