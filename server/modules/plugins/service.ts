import { compareVersions, pluginAdminMessages as messages, pluginSubscriptionSchema, PLUGIN_MAX_BYTES, type PluginAdminAnswer, type PluginInstalledAnswer, type PluginPatch, type PluginStagedVersion, type PluginTryAnswer } from "@contracts/plugin-admin";
import { createHash } from "node:crypto";
import { pinyin } from "pinyin-pro";
import type { AppDatabase } from "../../db/types.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import { SITE_ACTOR, type AuditActor, type AuditService } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import type { LiveSourceDirectory } from "../sources/directory.js";
import { BUILTIN_SOURCES } from "../sources/registry.js";
import { sourceSiteRepo } from "../sources/site-repo.js";
import { view } from "./plugin-view.js";
import { stageVersion } from "./plugin-versions.js";
import { pluginRepo, type PluginWithVersion } from "./repo.js";
import type { PluginRuntime } from "./runtime.js";
import { PluginCallError } from "./sandbox/host.js";
import type { FetchAnswer, GuestFetchRequest } from "./sandbox/protocol.js";
import type { AnswerToKeep, RecordedService } from "../sources/recorded/service.js";

/**
 * The back office's plugins (issue 21, ADR 0048): install by upload, URL or subscription, try,
 * switch, set variables, replace a built-in site, update, roll back, remove. Every change is one
 * transaction with its audit row, and touches the plugin's `source_sites` row so the `sources`
 * event rebuilds the directory of every instance; the answer waits for this instance's rebuild.
 */

export interface PluginAdminOptions {
  writes: Pick<CatalogueWriteService, "transaction">;
  audit: AuditService;
  directory: Pick<LiveSourceDirectory, "settled">;
  runtime: Pick<PluginRuntime, "inspect" | "withTrial">;
  /** Downloads a plugin or subscription (the guarded client: public hosts only). */
  download(url: string): Promise<string>;
  /** Holds a try's answers so that one can be saved as a sample (issue 22). */
  recorded?: Pick<RecordedService, "holdTrial">;
}

/** A try's answer as it came, before the bytes move to the sandbox's worker. */
function captured(request: GuestFetchRequest, answer: FetchAnswer, call: AnswerToKeep["call"]): AnswerToKeep & { error: string | null } {
  if ("error" in answer.meta) return { url: request.url, status: 0, headers: {}, body: "", reason: "", call, error: answer.meta.error };
  const body = answer.bytes ? Buffer.from(new Uint8Array(answer.bytes)) : Buffer.from(answer.text ?? "", "utf8");
  // The address the plugin asked for (not where a redirect ended): a replay matches on it.
  return { url: request.url, status: answer.meta.status, headers: answer.meta.headers, body, reason: "", call, error: null };
}

const BUILTIN_CODES = new Set(BUILTIN_SOURCES.map((s) => s.code));
/** An admin, or the site itself (a plugin switched off; a benchmark installing its plugins). */
type Actor = AuditActor | typeof SITE_ACTOR;
type Tx = AppDatabase;
/** The write service inside a transaction (what `writes.transaction` hands its callback). */
type Writes = Parameters<Parameters<PluginAdminOptions["writes"]["transaction"]>[0]>[0];

/** The source code a new plugin serves as: `p-` and its platform in latin letters. */
export function ownSourceCode(platform: string): string {
  const latin = pinyin(platform, { toneType: "none", type: "array", nonZh: "consecutive" }).join("");
  const slug = latin.toLowerCase().replace(/[^a-z0-9]+/gu, "").slice(0, 24);
  return `p-${slug || createHash("sha256").update(platform).digest("hex").slice(0, 8)}`;
}

export function pluginAdminService(db: AppDatabase, { writes, audit, directory, runtime, download, recorded }: PluginAdminOptions) {
  const repo = pluginRepo(db);

  async function found(platform: string): Promise<PluginWithVersion> {
    const plugin = await repo.get(platform);
    if (!plugin) throw notFound(messages.notFound);
    return plugin;
  }

  /** Loads the code in a throwaway sandbox instance: what it says of itself. */
  async function inspect(code: string): Promise<{ platform: string; version: string; meta: Record<string, unknown> }> {
    if (Buffer.byteLength(code) > PLUGIN_MAX_BYTES) throw badRequest(messages.tooLarge);
    let meta: Record<string, unknown>;
    try {
      meta = await runtime.inspect(code);
    } catch (err) {
      throw badRequest(`${messages.invalid}${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
    }
    if (typeof meta.platform !== "string" || !meta.platform.trim() || meta.platform.length > 64) throw badRequest(messages.noPlatform);
    return { platform: meta.platform.trim(), version: typeof meta.version === "string" && meta.version ? meta.version : "0.0.0", meta };
  }

  /** Makes the directory of every instance rebuild the source (a `sources` event). */
  async function touchSource(w: Writes, tx: Tx, code: string, own: { name: string; homepage: string; enabled?: boolean }): Promise<void> {
    const sites = sourceSiteRepo(tx);
    if (await sites.get(code)) await w.updateSourceSite(code, own.enabled === undefined ? {} : { enabled: own.enabled });
    else await w.upsertSourceSite({ code, name: own.name, homepage: own.homepage, enabled: own.enabled ?? false, sort: await sites.nextSort() });
  }

  const homepageOf = (meta: Record<string, unknown>) => {
    try {
      return typeof meta.srcUrl === "string" ? new URL(meta.srcUrl).origin : "";
    } catch {
      return "";
    }
  };

  /**
   * A new platform is installed switched off; a newer version of an installed one is staged, not
   * used (issue 22, ADR 0051 amendment); an older or equal one is refused.
   */
  async function installCode(actor: Actor, code: string, origin: string | null): Promise<{ installed: PluginAdminAnswer } | { staged: PluginStagedVersion }> {
    const { platform, version, meta } = await inspect(code);
    const sha256 = createHash("sha256").update(code).digest("hex");
    const staged = await writes.transaction(async (w, tx) => {
      const r = pluginRepo(tx as unknown as AppDatabase);
      const before = await r.get(platform);
      if (before) return stageVersion(tx as unknown as AppDatabase, audit, actor, before, { version, code, meta, origin });
      const versionId = await r.addVersion({ platform, version, code, sha256, meta, installedBy: actor.adminId === null ? null : String(actor.adminId), origin });
      let sourceCode = ownSourceCode(platform);
      while (await r.bySource(sourceCode)) sourceCode = `${sourceCode.slice(0, 28)}-${Math.floor(Math.random() * 1000)}`;
      await r.insert({ platform, sourceCode, currentVersionId: versionId, origin });
      await touchSource(w, tx as unknown as Tx, sourceCode, { name: platform, homepage: homepageOf(meta), enabled: false });
      const after = await r.get(platform);
      await audit.record(actor, { action: "plugin.install", targetType: "plugin", targetId: platform, before: null, after: after ? view(after) : null }, tx as unknown as AppDatabase);
      return null;
    });
    if (staged) return { staged };
    await directory.settled();
    return { installed: view(await found(platform)) };
  }

  /** One plugin's outcome as the install route answers it. */
  const answerOf = (done: Awaited<ReturnType<typeof installCode>>): PluginInstalledAnswer =>
    "staged" in done ? { installed: [], staged: [done.staged], failed: [] } : { installed: [done.installed], staged: [], failed: [] };

  /** Puts a stored newer version in use (the one before stays for a rollback). */
  async function activate(actor: Actor, platform: string, versionId: number, origin?: string): Promise<PluginAdminAnswer> {
    await writes.transaction(async (w, tx) => {
      const r = pluginRepo(tx as unknown as AppDatabase);
      const before = await r.get(platform);
      if (!before) throw notFound(messages.notFound);
      const next = await r.version(versionId);
      if (!next || next.platform !== platform) throw notFound(messages.notFound);
      if (compareVersions(next.version, before.current.version) <= 0) throw badRequest(messages.notNewer);
      // The platform's origin follows the version put in use when it came from an address (an
      // upload says nothing of where updates come from, so the old origin stays).
      const from = origin ?? next.origin;
      await r.update(platform, { currentVersionId: next.id, previousVersionId: before.current.id, ...(from ? { origin: from } : {}) });
      await touchSource(w, tx as unknown as Tx, before.sourceCode, { name: platform, homepage: homepageOf(next.meta) });
      const after = await r.get(platform);
      await audit.record(actor, { action: "plugin.update", targetType: "plugin", targetId: platform, before: view(before), after: after ? view(after) : null, detail: { activated: next.version } }, tx as unknown as AppDatabase);
    });
    await directory.settled();
    return view(await found(platform));
  }

  /** The newer version at the plugin's `srcUrl` (its origin when it declares none), staged. */
  async function stageFromSource(actor: AuditActor, platform: string): Promise<PluginStagedVersion & { src: string }> {
    const plugin = await found(platform);
    const src = typeof plugin.current.meta.srcUrl === "string" ? plugin.current.meta.srcUrl : plugin.origin;
    if (!src || !/^https?:\/\//iu.test(src)) throw badRequest(messages.badUrl);
    const code = await fetchText(src);
    const { platform: named, version, meta } = await inspect(code);
    if (named !== platform) throw badRequest(messages.notNewer);
    const staged = await writes.transaction(async (_w, tx) => {
      const before = await pluginRepo(tx as unknown as AppDatabase).get(platform);
      if (!before) throw notFound(messages.notFound);
      return stageVersion(tx as unknown as AppDatabase, audit, actor, before, { version, code, meta, origin: src });
    });
    return { ...staged, src };
  }

  async function fetchText(url: string): Promise<string> {
    try {
      return await download(url);
    } catch (err) {
      throw badRequest(`${messages.fetchFailed}${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
    }
  }

  /** One plugin's switches, variables or replaced built-in, inside the caller's transaction. */
  async function patchIn(w: Writes, tx: Tx, actor: Actor, platform: string, patch: PluginPatch): Promise<void> {
    const r = pluginRepo(tx);
    const before = await r.get(platform);
    if (!before) throw notFound(messages.notFound);
    const change: Parameters<typeof r.update>[1] = {};
    let sourceCode = before.sourceCode;
    let replaces = before.replacesBuiltin;
    if (patch.replaces !== undefined) {
      if (patch.replaces === null) {
        sourceCode = ownSourceCode(platform);
        replaces = false;
      } else {
        if (!BUILTIN_CODES.has(patch.replaces)) throw badRequest(messages.unknownBuiltin);
        const holder = await r.bySource(patch.replaces);
        if (holder && holder.platform !== platform) throw badRequest(messages.builtinTaken);
        sourceCode = patch.replaces;
        replaces = true;
      }
      Object.assign(change, { sourceCode, replacesBuiltin: replaces });
    }
    if (patch.variables !== undefined) change.variables = patch.variables;
    const enabled = patch.enabled ?? before.enabled;
    if (patch.enabled !== undefined) Object.assign(change, { enabled, ...(enabled ? { disabledReason: null } : {}) });
    await r.update(platform, change);
    // Its own source is on while it is; a built-in it replaces keeps its own switch.
    const name = before.platform;
    const homepage = homepageOf(before.current.meta);
    await touchSource(w, tx, sourceCode, replaces ? { name, homepage } : { name, homepage, enabled });
    if (sourceCode !== before.sourceCode) await touchSource(w, tx, before.sourceCode, before.replacesBuiltin ? { name, homepage } : { name, homepage, enabled: false });
    const after = await r.get(platform);
    await audit.record(actor, { action: "plugin.update", targetType: "plugin", targetId: platform, before: view(before), after: after ? view(after) : null, detail: { patch: { ...patch, ...(patch.variables ? { variables: Object.keys(patch.variables) } : {}) } } }, tx);
  }

  return {
    async list(): Promise<PluginAdminAnswer[]> {
      return (await repo.list()).map(view);
    },

    /** An uploaded file: a new platform installed, or a newer version staged (`staged`). */
    installFile: async (actor: Actor, code: string): Promise<PluginInstalledAnswer> => answerOf(await installCode(actor, code, null)),

    async installUrl(actor: AuditActor, url: string): Promise<PluginInstalledAnswer> {
      return answerOf(await installCode(actor, await fetchText(url), url));
    },

    /** Every plugin of a MusicFree subscription; one that fails (or is not newer) does not stop the others. */
    async installSubscription(actor: AuditActor, url: string): Promise<PluginInstalledAnswer> {
      let list;
      try {
        list = pluginSubscriptionSchema.parse(JSON.parse(await fetchText(url)));
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw badRequest(messages.subscriptionInvalid);
      }
      const answer: PluginInstalledAnswer = { installed: [], staged: [], failed: [] };
      for (const item of list.plugins) {
        try {
          const done = await installCode(actor, await fetchText(item.url), url);
          if ("staged" in done) answer.staged.push(done.staged);
          else answer.installed.push(done.installed);
        } catch (err) {
          answer.failed.push({ name: item.name ?? item.url, error: err instanceof Error ? err.message : String(err) });
        }
      }
      return answer;
    },

    /**
     * Install-and-use for API clients (ADR 0051 amendment): the newer version at `srcUrl` is staged
     * (audited `plugin.stage`) and activated at once (`plugin.update`). The back office stages.
     */
    async update(actor: AuditActor, platform: string): Promise<PluginAdminAnswer> {
      const staged = await stageFromSource(actor, platform);
      return activate(actor, platform, staged.versionId, staged.src);
    },

    /**
     * 检查更新 without switching (issue 22): the newer version at the plugin's `srcUrl` is stored
     * beside the one in use, to be replayed against the source's samples and then activated.
     */
    async stage(actor: AuditActor, platform: string): Promise<{ versionId: number; version: string; current: string }> {
      const { versionId, version, current } = await stageFromSource(actor, platform);
      return { versionId, version, current };
    },

    activate: (actor: Actor, platform: string, versionId: number) => activate(actor, platform, versionId),

    async patch(actor: Actor, platform: string, patch: PluginPatch): Promise<PluginAdminAnswer> {
      await writes.transaction((w, tx) => patchIn(w, tx as unknown as Tx, actor, platform, patch));
      await directory.settled();
      return view(await found(platform));
    },

    /**
     * 批量启用/停用: every plugin named or none (an unknown one: 404, nothing changed), each as its
     * own switch would change it, with its audit row; one transaction, one rebuild of the directory.
     */
    async switchMany(actor: AuditActor, platforms: string[], enabled: boolean): Promise<PluginAdminAnswer[]> {
      const unique = [...new Set(platforms)];
      await writes.transaction(async (w, tx) => {
        for (const platform of unique) {
          const before = await pluginRepo(tx as unknown as AppDatabase).get(platform);
          if (!before) throw notFound(unique.length > 1 ? messages.missingSome : messages.notFound);
          // Already as asked: no write, no audit row saying nothing changed.
          if (before.enabled !== enabled) await patchIn(w, tx as unknown as Tx, actor, platform, { enabled });
        }
      });
      await directory.settled();
      return Promise.all(unique.map(async (platform) => view(await found(platform))));
    },

    async rollback(actor: AuditActor, platform: string): Promise<PluginAdminAnswer> {
      await writes.transaction(async (w, tx) => {
        const r = pluginRepo(tx as unknown as AppDatabase);
        const before = await r.get(platform);
        if (!before) throw notFound(messages.notFound);
        if (!before.previous) throw badRequest(messages.noPrevious);
        // As on activation: the origin follows the version put back when that one came from an address.
        const from = before.previous.origin;
        await r.update(platform, { currentVersionId: before.previous.id, previousVersionId: before.current.id, ...(from ? { origin: from } : {}) });
        await touchSource(w, tx as unknown as Tx, before.sourceCode, { name: platform, homepage: "" });
        const after = await r.get(platform);
        await audit.record(actor, { action: "plugin.rollback", targetType: "plugin", targetId: platform, before: view(before), after: after ? view(after) : null }, tx as unknown as AppDatabase);
      });
      await directory.settled();
      return view(await found(platform));
    },

    async remove(actor: AuditActor, platform: string): Promise<void> {
      const drop = writes.transaction(async (w, tx) => {
        const r = pluginRepo(tx as unknown as AppDatabase);
        const before = await r.get(platform);
        if (!before) throw notFound(messages.notFound);
        await r.remove(platform);
        const sites = sourceSiteRepo(tx as unknown as AppDatabase);
        // Its own source goes with it unless items name it (then it stays, switched off).
        if (before.replacesBuiltin) await w.updateSourceSite(before.sourceCode, {});
        else if ((await sites.itemCount(before.sourceCode)) > 0) await w.updateSourceSite(before.sourceCode, { enabled: false });
        else await w.deleteSourceSite(before.sourceCode);
        await audit.record(actor, { action: "plugin.delete", targetType: "plugin", targetId: platform, before: view(before), after: null }, tx as unknown as AppDatabase);
      });
      try {
        await drop;
      } catch (err) {
        // A suite naming its source was made meanwhile (items.source_site references the site).
        const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        if (code === "23503") throw new AppError(409, messages.sourceInUse);
        throw err;
      }
      await directory.settled();
    },

    /**
     * A search and the first hit's address with the plugin's current version, enabled or not.
     * The answers its requests got are held, each named by the call it served, for 保存为样本.
     */
    async tryIt(platform: string, keyword: string): Promise<PluginTryAnswer> {
      const plugin = await found(platform);
      const started = Date.now();
      const got: ReturnType<typeof captured>[] = [];
      let call: AnswerToKeep["call"] = { method: "search", args: [keyword, 1, "music"] };
      const onAnswer = (request: GuestFetchRequest, answer: FetchAnswer) => void got.push(captured(request, answer, call));
      const held = async () => (recorded ? recorded.holdTrial(plugin.sourceCode, got) : []);
      try {
        const answer = await runtime.withTrial(
          plugin,
          async (entry) => {
            const page = await entry.adapter.search({ keyword, page: 1, type: "mp3" }, AbortSignal.timeout(10_000));
            const first = page.items[0];
            if (first) call = { method: "getMediaSource", args: [first.raw ?? { id: first.sourceId }, "standard"] };
            const media = first ? await entry.adapter.resolveMedia(first.sourceId, AbortSignal.timeout(10_000)).catch(() => null) : null;
            return {
              ms: Date.now() - started,
              ok: true,
              items: page.items.map((i) => ({ id: i.sourceId, title: i.title, artist: i.artist, cover: i.cover, duration: i.duration })),
              media: media ? { url: media.url, headers: media.headers } : null,
              error: null,
            };
          },
          { onAnswer },
        );
        return { ...answer, answers: await held() };
      } catch (err) {
        const message = err instanceof PluginCallError ? `${err.kind}: ${err.message}` : err instanceof Error ? err.message : String(err);
        return { ms: Date.now() - started, ok: false, items: [], media: null, error: `${messages.tryFailed}${message}`, answers: await held() };
      }
    },

    /** A plugin that kept misbehaving: switched off by the site, with the reason shown. */
    async switchOff(platform: string, reason: string): Promise<void> {
      await writes.transaction(async (w, tx) => {
        const r = pluginRepo(tx as unknown as AppDatabase);
        const before = await r.get(platform);
        if (!before?.enabled) return;
        await r.update(platform, { enabled: false, disabledReason: reason });
        await touchSource(w, tx as unknown as Tx, before.sourceCode, before.replacesBuiltin ? { name: platform, homepage: "" } : { name: platform, homepage: "", enabled: false });
        const after = await r.get(platform);
        await audit.record(SITE_ACTOR, { action: "plugin.disable", targetType: "plugin", targetId: platform, before: view(before), after: after ? view(after) : null, detail: { reason } }, tx as unknown as AppDatabase);
      });
      await directory.settled();
    },
  };
}

export type PluginAdminService = ReturnType<typeof pluginAdminService>;
