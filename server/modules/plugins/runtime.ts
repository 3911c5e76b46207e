import type { DbLogger } from "../../db/types.js";
import type { LookupFunction } from "../sources/fetch/index.js";
import type { SourceAdapterEntry } from "../sources/source-provider.js";
import { pluginNetwork, type PluginNetwork } from "./network.js";
import { capabilitiesOf, pluginAdapter } from "./plugin-adapter.js";
import type { PluginWithVersion } from "./repo.js";
import { PluginSandbox } from "./sandbox/host.js";
import type { FetchAnswer, GuestFetchRequest, SandboxFailureKind, SandboxLimits } from "./sandbox/protocol.js";

/**
 * The plugins in use (issue 21): each enabled plugin's current version loaded in the sandbox
 * with its variables and its own guarded network, as a source entry the directory lists. The
 * sandbox's workers start with the first plugin, so a site without plugins pays nothing.
 */

export interface PluginRuntimeOptions {
  logger: Pick<DbLogger, "info" | "warn" | "error">;
  /** `OUTBOUND_ALLOW`: addresses and CIDR ranges the guard lets through (tests: fixture servers). */
  allowAddresses?: string[];
  lookup?: LookupFunction;
  limits?: Partial<SandboxLimits>;
  workers?: number;
  /** Requests at once to one plugin's sites (default 4). */
  concurrency?: number;
  /** A plugin hit a limit (counted on its source's health; repeated ones switch it off). */
  onViolation?(plugin: { platform: string; source: string; name: string }, kind: SandboxFailureKind, message: string): void;
}

/** How a trial instance reaches the network: answered from recorded answers, or watched as it goes out. */
export interface TrialOptions {
  /** Code of another version of the plugin (a replay of a version not yet current). */
  code?: string;
  /** Answers every request instead of the network (a replay of recorded answers). */
  answer?(request: GuestFetchRequest): Promise<FetchAnswer>;
  /** Sees each answer from the network before it goes to the plugin (a try that may be saved). */
  onAnswer?(request: GuestFetchRequest, answer: FetchAnswer): void;
}

/** A plugin's own method, called as it is (a replay reads what it returns). */
export type RawCall = (method: string, args: unknown[], signal?: AbortSignal) => Promise<unknown>;

interface Built {
  key: string;
  entry: SourceAdapterEntry;
  network: PluginNetwork;
}

export const PLUGIN_TIMEOUT_MS = 5_000;

export function pluginRuntime(options: PluginRuntimeOptions) {
  let sandbox: PluginSandbox | null = null;
  const built = new Map<string, Built>();
  const networks = new Map<string, PluginNetwork>();
  const owners = new Map<string, { platform: string; source: string; name: string }>();
  let inspections = 0;

  function sandboxOf(): PluginSandbox {
    sandbox ??= new PluginSandbox({
      workers: options.workers ?? 1,
      ...(options.limits ? { limits: options.limits } : {}),
      fetch: async (instance, request) => {
        const network = networks.get(instance);
        if (!network) return { meta: { error: "plugin has no network", code: "ERR_CANCELED" } };
        return network.answer(request);
      },
      log: (instance, level, message) => options.logger.info({ plugin: instance, level }, `plugin says: ${message}`),
      onViolation: (instance, kind, message) => {
        const owner = owners.get(instance);
        options.logger.warn({ plugin: instance, kind, reason: message }, "plugin hit a sandbox limit");
        if (owner) options.onViolation?.(owner, kind, message);
      },
    });
    return sandbox;
  }

  function networkFor(instance: string, source: string, trial: TrialOptions = {}): PluginNetwork {
    const real = trial.answer ? null : pluginNetwork(source, {
      logger: options.logger,
      ...(options.allowAddresses ? { allowAddresses: options.allowAddresses } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
      timeoutMs: PLUGIN_TIMEOUT_MS,
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    });
    let network: PluginNetwork;
    if (real) {
      const watch = trial.onAnswer;
      network = watch ? { ...real, answer: async (request) => { const answer = await real.answer(request); watch(request, answer); return answer; } } : real;
    } else {
      const replay = trial.answer!;
      network = { answer: (request) => replay(request), media: { open: () => Promise.reject(new Error("replay has no media")) }, setTimeoutMs: () => {}, tapAnswers: () => () => {}, close: () => {} };
    }
    networks.set(instance, network);
    return network;
  }

  /** What, when changed, makes a plugin's entry built again: its version, its variables, its name. */
  const keyOf = (plugin: PluginWithVersion, name: string) => `${plugin.current.id}\n${JSON.stringify(plugin.variables)}\n${name}`;

  async function build(plugin: PluginWithVersion, shown: { name: string; homepage: string; logo?: string | null }, trial?: TrialOptions): Promise<Built & { call: RawCall }> {
    const instance = `plugin:${plugin.platform}`;
    networks.get(instance)?.close();
    const network = networkFor(instance, plugin.sourceCode, trial);
    owners.set(instance, { platform: plugin.platform, source: plugin.sourceCode, name: shown.name });
    const loaded = await sandboxOf().load(instance, trial?.code ?? plugin.current.code, plugin.variables);
    const adapter = pluginAdapter({
      code: plugin.sourceCode,
      name: shown.name,
      homepage: shown.homepage,
      capabilities: capabilitiesOf(loaded.exports),
      caller: { call: (method, args, signal) => sandboxOf().call(instance, method, args, signal ? { signal } : {}) },
    });
    const entry: SourceAdapterEntry = {
      code: plugin.sourceCode,
      name: shown.name,
      homepage: shown.homepage,
      ...(shown.logo ? { logo: shown.logo } : {}),
      timeoutMs: PLUGIN_TIMEOUT_MS,
      setTimeoutMs: (ms) => network.setTimeoutMs(ms),
      tapAnswers: (listener) => network.tapAnswers(listener),
      adapter,
      media: network.media,
    };
    const call: RawCall = (method, args, signal) => sandboxOf().call(instance, method, args, signal ? { signal } : {});
    return { key: keyOf(plugin, shown.name), entry, network, call };
  }

  return {
    /**
     * The entries of the enabled plugins, by the source code each serves as. Unchanged plugins
     * keep their loaded instance; a plugin that fails to load is left out (and logged).
     */
    async entries(plugins: readonly PluginWithVersion[], shownOf: (code: string) => { name: string; homepage: string; logo?: string | null } | undefined): Promise<Map<string, SourceAdapterEntry>> {
      const out = new Map<string, SourceAdapterEntry>();
      const wanted = new Set<string>();
      for (const plugin of plugins) {
        if (!plugin.enabled) continue;
        wanted.add(plugin.platform);
        const shown = shownOf(plugin.sourceCode) ?? { name: plugin.platform, homepage: "" };
        let kept = built.get(plugin.platform);
        if (!kept || kept.key !== keyOf(plugin, shown.name)) {
          try {
            kept = await build(plugin, shown);
            built.set(plugin.platform, kept);
          } catch (err) {
            options.logger.error({ err, plugin: plugin.platform }, "plugin did not load: left out");
            continue;
          }
        }
        out.set(plugin.sourceCode, kept.entry);
      }
      for (const [platform, kept] of built) {
        if (wanted.has(platform)) continue;
        built.delete(platform);
        sandbox?.unload(`plugin:${platform}`);
        kept.network.close();
        networks.delete(`plugin:${platform}`);
      }
      return out;
    },

    /** Loads code in a throwaway instance: what it exports (platform, version, methods…). */
    async inspect(code: string): Promise<Record<string, unknown>> {
      const instance = `inspect:${++inspections}`;
      try {
        return (await sandboxOf().load(instance, code)).exports;
      } finally {
        sandbox?.unload(instance);
      }
    },

    /**
     * A plugin's instance for a try before it is enabled, or for a replay of recorded answers
     * through one of its versions: loaded, used, dropped.
     */
    async withTrial<T>(plugin: PluginWithVersion, run: (entry: SourceAdapterEntry, call: RawCall) => Promise<T>, options: TrialOptions = {}): Promise<T> {
      const trial = { ...plugin, platform: `trial:${plugin.platform}:${++inspections}` };
      const made = await build(trial, { name: plugin.platform, homepage: "" }, options);
      try {
        return await run(made.entry, made.call);
      } finally {
        sandbox?.unload(`plugin:${trial.platform}`);
        made.network.close();
        networks.delete(`plugin:${trial.platform}`);
        owners.delete(`plugin:${trial.platform}`);
      }
    },

    /** QuickJS heap bytes per loaded plugin. */
    memory: () => sandbox?.memory() ?? Promise.resolve({}),

    async close(): Promise<void> {
      for (const network of networks.values()) network.close();
      networks.clear();
      built.clear();
      await sandbox?.close();
      sandbox = null;
    },
  };
}

export type PluginRuntime = ReturnType<typeof pluginRuntime>;
