import type { AppDatabase, DbLogger } from "../../db/types.js";
import type { AuditService } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import type { LiveSourceDirectory } from "../sources/directory.js";
import type { LookupFunction } from "../sources/fetch/index.js";
import type { HealthBoard } from "../sources/health.js";
import type { SourceSiteRow } from "../sources/site-repo.js";
import { decodeBody } from "../sources/fetch/decode.js";
import { pluginNetwork } from "./network.js";
import { pluginRepo } from "./repo.js";
import { pluginRuntime } from "./runtime.js";
import type { SandboxFailureKind, SandboxLimits } from "./sandbox/protocol.js";
import { late } from "../../lib/late.js";
import { pluginAdminService, type PluginAdminService } from "./service.js";
import type { RecordedService } from "../sources/recorded/service.js";

/** How the plugins reach the network and how hard they are bounded (config; tests). */
export interface PluginSettings {
  /** `OUTBOUND_ALLOW`: addresses and CIDR ranges the SSRF guard lets through. */
  allowAddresses?: string[];
  lookup?: LookupFunction;
  limits?: Partial<SandboxLimits>;
  workers?: number;
  /** Requests at once to one plugin's sites (default 4: politeness to the real sites; benchmarks raise it). */
  concurrency?: number;
  /** Limits hit within `MISBEHAVING_WINDOW_MS` that switch a plugin off (default 3: before the breaker, which opens at 5 failures, stops calling it). */
  misbehavingThreshold?: number;
}

const MISBEHAVING_WINDOW_MS = 10 * 60_000;

/** How the back office names each limit a plugin hit. */
const LIMIT_TEXT: Record<SandboxFailureKind, string> = {
  cpu: "超出 CPU 时间",
  memory: "超出内存或栈限制",
  timeout: "调用超时未返回",
  crash: "导致沙箱线程失去响应",
  plugin: "运行出错",
  missing: "缺少方法",
  invalid: "返回无效结果",
  busy: "沙箱繁忙，调用未开始",
};

/**
 * The plugins' part of the services (issue 21): the runtime that loads enabled plugins for the
 * source directory, the back office's service, and the rule that a plugin hitting its sandbox's
 * limits again and again is switched off with the reason shown.
 */
export function pluginServices({
  db,
  writes,
  audit,
  logger,
  health,
  directory,
  recorded,
  settings = {},
}: {
  db: AppDatabase;
  writes: Pick<CatalogueWriteService, "transaction">;
  audit: AuditService;
  logger: Pick<DbLogger, "info" | "warn" | "error">;
  health: () => Pick<HealthBoard, "track">;
  directory: () => Pick<LiveSourceDirectory, "settled">;
  /** Holds a try's answers for 保存为样本 (issue 22). */
  recorded?: Pick<RecordedService, "holdTrial">;
  settings?: PluginSettings;
}) {
  const repo = pluginRepo(db);
  const strikes = new Map<string, number[]>();
  const threshold = settings.misbehavingThreshold ?? 3;
  // A cycle (ADR 0058): the back office loads plugins through the runtime, and the runtime
  // switches off, through the back office, a plugin that keeps misbehaving. Set below.
  const adminOf = late<PluginAdminService>("the plugins' back office");
  const runtime = pluginRuntime({
    logger,
    ...(settings.allowAddresses ? { allowAddresses: settings.allowAddresses } : {}),
    ...(settings.lookup ? { lookup: settings.lookup } : {}),
    ...(settings.limits ? { limits: settings.limits } : {}),
    ...(settings.workers ? { workers: settings.workers } : {}),
    ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
    onViolation(plugin, kind, message) {
      if (plugin.platform.startsWith("trial:")) return;
      health().track(plugin.source, plugin.name).failed(0, { kind: "plugin", message: `${kind}: ${message}` });
      const now = Date.now();
      const recent = [...(strikes.get(plugin.platform) ?? []).filter((at) => now - at < MISBEHAVING_WINDOW_MS), now];
      strikes.set(plugin.platform, recent);
      if (recent.length < threshold) return;
      strikes.delete(plugin.platform);
      const reason = `10 分钟内 ${recent.length} 次超出沙箱限制，最近一次：${LIMIT_TEXT[kind]}`;
      logger.warn({ plugin: plugin.platform, reason }, "plugin switched off: it kept misbehaving");
      void adminOf.get().switchOff(plugin.platform, reason).catch((err: unknown) => logger.error({ err, plugin: plugin.platform }, "plugin could not be switched off"));
    },
  });

  // Plugins and subscriptions are downloaded through the same guard as the plugins' own requests.
  const downloader = pluginNetwork("plugin-download", {
    logger,
    ...(settings.allowAddresses ? { allowAddresses: settings.allowAddresses } : {}),
    ...(settings.lookup ? { lookup: settings.lookup } : {}),
    timeoutMs: 15_000,
    maxBodyBytes: 2 * 1024 * 1024,
  });
  async function download(url: string): Promise<string> {
    const answer = await downloader.answer({ url, method: "GET" });
    if ("error" in answer.meta) throw new Error(answer.meta.error);
    if (answer.meta.status < 200 || answer.meta.status >= 300) throw new Error(`HTTP ${answer.meta.status}`);
    const contentType = answer.meta.headers["content-type"];
    return answer.bytes ? decodeBody(Buffer.from(answer.bytes), contentType) : (answer.text ?? "");
  }

  const admin = adminOf.set(pluginAdminService(db, {
    writes,
    audit,
    directory: { settled: () => directory().settled() },
    runtime,
    download,
    ...(recorded ? { recorded } : {}),
  }));

  return {
    runtime,
    admin,
    /** For the source directory: the enabled plugins' entries, named and shown as their rows say. */
    async entries(rows: readonly SourceSiteRow[]) {
      const plugins = await repo.list();
      const rowOf = new Map(rows.map((r) => [r.code, r]));
      return runtime.entries(plugins, (code) => rowOf.get(code));
    },
    async close() {
      downloader.close();
      await runtime.close();
    },
  };
}

export type PluginServices = ReturnType<typeof pluginServices>;
