import { Worker } from "node:worker_threads";
import { workerEntry } from "../../../lib/worker-entry.js";
import { DEFAULT_SANDBOX_LIMITS, type FetchAnswer, type FromWorker, type GuestFetchRequest, type SandboxFailureKind, type SandboxLimits, type ToWorker } from "./protocol.js";

/**
 * The plugin sandbox as the server sees it (issue 21): a few worker threads, each holding plugin
 * instances in QuickJS engines. Calls are spread over the workers by plugin; a worker that stops
 * answering (stuck beyond every limit) is terminated and its plugins load again on next use.
 * The only way out of a plugin is `fetch`, which the owner answers through the guarded client.
 */

export class PluginCallError extends Error {
  constructor(
    readonly kind: SandboxFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "PluginCallError";
  }
}

export interface PluginSandboxOptions {
  /** Worker threads (default 1). */
  workers?: number;
  limits?: Partial<SandboxLimits>;
  /** A plugin's request, answered through the guarded client of its source. */
  fetch(instance: string, request: GuestFetchRequest): Promise<FetchAnswer>;
  log?(instance: string, level: string, message: string): void;
  /** A limit hit (CPU, memory, a call that never settled, a crashed worker). */
  onViolation?(instance: string, kind: SandboxFailureKind, message: string): void;
  /** The worker's V8 heap (its cheerio documents), MB. Default 256. */
  workerHeapMb?: number;
}

export interface LoadedPlugin {
  exports: Record<string, unknown>;
  heapBytes: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  instance: string;
  /** A call the worker said it began (its plugin's code ran). */
  started?: boolean;
  /** A call queued behind another on a worker that was lost: sent once more to a fresh worker. */
  retry?(): void;
}

interface Slot {
  worker: Worker;
  instances: Set<string>;
  pending: Map<number, Pending>;
  /**
   * Calls given up on (the search's timeout, an abort) after the worker began them, by id: the
   * plugin still runs until it ends or hits a limit, and a limit hit then counts against it all
   * the same (on a busy machine a looping plugin's 1 s of CPU outlasts the search's wait).
   */
  abandoned: Map<number, string>;
}

export class PluginSandbox {
  readonly limits: SandboxLimits;
  private readonly slots: Slot[] = [];
  private readonly placement = new Map<string, Slot>();
  private readonly sources = new Map<string, { code: string; variables: Record<string, string> }>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PluginSandboxOptions) {
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  }

  private spawn(): Slot {
    const { url, execArgv } = workerEntry(import.meta, "./worker.ts", "plugin-worker.js");
    const worker = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: this.options.workerHeapMb ?? 256 }, stdout: false, stderr: false });
    const slot: Slot = { worker, instances: new Set(), pending: new Map(), abandoned: new Map() };
    worker.unref();
    worker.on("message", (message: FromWorker) => this.receive(slot, message));
    worker.on("error", (err) => this.lost(slot, `sandbox worker failed: ${err.message}`));
    worker.on("exit", () => this.lost(slot, "sandbox worker exited"));
    this.slots.push(slot);
    return slot;
  }

  /** The worker with the fewest plugins (new workers until the pool is full). */
  private slotFor(instance: string): Slot {
    const placed = this.placement.get(instance);
    if (placed) return placed;
    const size = Math.max(1, this.options.workers ?? 1);
    const slot = this.slots.length < size ? this.spawn() : this.slots.reduce((a, b) => (b.instances.size < a.instances.size ? b : a));
    slot.instances.add(instance);
    this.placement.set(instance, slot);
    return slot;
  }

  private receive(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case "loaded":
        return this.settle(slot, message.id, { exports: message.exports, heapBytes: message.heapBytes });
      case "result":
        slot.abandoned.delete(message.id);
        return this.settle(slot, message.id, message.value);
      case "memory":
        return this.settle(slot, message.id, message.instances);
      case "started": {
        const pending = slot.pending.get(message.id);
        if (pending) pending.started = true;
        return;
      }
      case "failed": {
        const pending = slot.pending.get(message.id);
        slot.pending.delete(message.id);
        const abandonedBy = slot.abandoned.get(message.id);
        slot.abandoned.delete(message.id);
        const instance = pending?.instance ?? abandonedBy;
        if (instance && (message.kind === "cpu" || message.kind === "memory")) this.options.onViolation?.(instance, message.kind, message.message);
        if (!pending) return;
        pending.reject(new PluginCallError(message.kind, message.message));
        return;
      }
      case "reset":
        return this.options.onViolation?.(message.instance, message.kind, message.message);
      case "log":
        return this.options.log?.(message.instance, message.level, message.message);
      case "fetch": {
        const answer = this.sources.has(message.instance)
          ? this.options.fetch(message.instance, message.request)
          : Promise.resolve<FetchAnswer>({ meta: { error: "plugin unloaded", code: "ERR_CANCELED" } });
        void answer
          .catch((err: unknown): FetchAnswer => ({ meta: { error: err instanceof Error ? err.message : String(err), code: "ERR_NETWORK" } }))
          .then((done) => {
            if (this.slots.includes(slot)) slot.worker.postMessage({ type: "fetched", fetchId: message.fetchId, answer: done } satisfies ToWorker, done.bytes ? [done.bytes] : []);
          });
      }
    }
  }

  private settle(slot: Slot, id: number, value: unknown): void {
    const pending = slot.pending.get(id);
    slot.pending.delete(id);
    pending?.resolve(value);
  }

  /** A worker gone: its calls fail, its plugins load again in a new worker on next use. */
  private lost(slot: Slot, reason: string): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    void slot.worker.terminate();
    for (const instance of slot.instances) this.placement.delete(instance);
    for (const pending of slot.pending.values()) {
      if (pending.retry && !this.closed) pending.retry();
      else pending.reject(new PluginCallError("crash", reason));
    }
    slot.pending.clear();
  }

  private request<T>(slot: Slot, instance: string, message: ToWorker & { id: number }, timeoutMs: number, signal?: AbortSignal, retry?: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const pending: Pending = {
        instance,
        resolve: (value) => (done(), resolve(value as T)),
        reject: (error) => (done(), reject(error)),
        ...(retry ? { retry: () => (done(), retry().then(resolve, reject)) } : {}),
      };
      /**
       * Gives up on the call. One the worker never began (it was busy with others) is dropped
       * there and fails as "busy": our queue, neither the plugin's fault nor its site's.
       */
      const giveUp = (): boolean => {
        slot.pending.delete(message.id);
        if (message.type === "call" && pending.started && instance) slot.abandoned.set(message.id, instance);
        done();
        if (message.type === "call" && !pending.started) slot.worker.postMessage({ type: "cancel", id: message.id } satisfies ToWorker);
        return message.type === "call" && !pending.started;
      };
      const onAbort = () => {
        if (giveUp()) return reject(new PluginCallError("busy", "call given up before the sandbox began it"));
        reject(signal!.reason instanceof Error ? signal!.reason : new PluginCallError("timeout", "call aborted"));
      };
      slot.pending.set(message.id, pending);
      timer = setTimeout(() => {
        if (giveUp()) {
          reject(new PluginCallError("busy", `the sandbox did not begin the call within ${timeoutMs} ms`));
          // So long a wait may also be a worker stuck outside every limit: check it answers.
          return void this.probe(slot);
        }
        // Counted once, as this timeout: a limit the call hits later is not a second strike.
        slot.abandoned.delete(message.id);
        if (instance) this.options.onViolation?.(instance, "timeout", `call did not settle within ${timeoutMs} ms`);
        reject(new PluginCallError("timeout", `plugin did not answer within ${timeoutMs} ms`));
        // A call that never settles may be a worker stuck outside every limit: check it answers.
        void this.probe(slot);
      }, timeoutMs);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      slot.worker.postMessage(message);
    });
  }

  /** Asks the worker for its memory; a worker that cannot answer in 1 s is replaced. */
  private async probe(slot: Slot): Promise<void> {
    const id = this.nextId++;
    const answered = this.request(slot, "", { type: "memory", id }, 1_000).then(
      () => true,
      () => false,
    );
    if (!(await answered)) this.lost(slot, "sandbox worker stopped answering");
  }

  /** Loads (or reloads) a plugin's code under `instance`; resolves with what it exports. */
  async load(instance: string, code: string, variables: Record<string, string> = {}): Promise<LoadedPlugin> {
    if (this.closed) throw new PluginCallError("crash", "sandbox closed");
    this.sources.set(instance, { code, variables });
    const slot = this.slotFor(instance);
    const id = this.nextId++;
    try {
      return await this.request<LoadedPlugin>(slot, instance, { type: "load", id, instance, code, variables, limits: this.limits }, this.limits.callTimeoutMs);
    } catch (err) {
      this.sources.delete(instance);
      throw err;
    }
  }

  async call(instance: string, method: string, args: unknown[], options: { timeoutMs?: number; signal?: AbortSignal } = {}, retried = false): Promise<unknown> {
    if (this.closed) throw new PluginCallError("crash", "sandbox closed");
    const source = this.sources.get(instance);
    if (!source) throw new PluginCallError("crash", "plugin is not loaded");
    let slot = this.placement.get(instance);
    if (!slot) {
      // Its worker was lost: load it again in a live one first.
      await this.load(instance, source.code, source.variables);
      slot = this.placement.get(instance)!;
    }
    const id = this.nextId++;
    const retry = retried ? undefined : () => this.call(instance, method, args, options, true);
    return this.request(slot, instance, { type: "call", id, instance, method, args }, options.timeoutMs ?? this.limits.callTimeoutMs, options.signal, retry);
  }

  unload(instance: string): void {
    this.sources.delete(instance);
    const slot = this.placement.get(instance);
    this.placement.delete(instance);
    if (!slot) return;
    slot.instances.delete(instance);
    slot.worker.postMessage({ type: "unload", instance } satisfies ToWorker);
  }

  /** QuickJS heap bytes of every loaded plugin. */
  async memory(): Promise<Record<string, number>> {
    const all = await Promise.all(this.slots.map((slot) => this.request<Record<string, number>>(slot, "", { type: "memory", id: this.nextId++ }, 2_000)));
    return Object.assign({}, ...all) as Record<string, number>;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
    this.placement.clear();
    this.sources.clear();
  }
}
