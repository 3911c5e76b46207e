import { compareVersions, pluginAdminMessages as messages, type PluginStagedVersion } from "@contracts/plugin-admin";
import { createHash } from "node:crypto";
import type { AppDatabase } from "../../db/types.js";
import { badRequest } from "../../errors.js";
import type { AuditActor, AuditService, SITE_ACTOR } from "../audit/service.js";
import { pluginRepo, type PluginWithVersion } from "./repo.js";

/**
 * A newer version of an installed platform, however it came (检查更新, an upload, an address, a
 * subscription): stored beside the one in use and not used (issue 22, ADR 0051 amendment), so the
 * back office replays the source's samples through it before `activate` makes it current.
 */
export async function stageVersion(
  tx: AppDatabase,
  audit: Pick<AuditService, "record">,
  actor: AuditActor | typeof SITE_ACTOR,
  before: PluginWithVersion,
  next: { version: string; code: string; meta: Record<string, unknown>; origin: string | null },
): Promise<PluginStagedVersion> {
  if (compareVersions(next.version, before.current.version) <= 0) throw badRequest(messages.notNewer);
  const r = pluginRepo(tx);
  const platform = before.platform;
  const sha256 = createHash("sha256").update(next.code).digest("hex");
  const versionId = await r.addVersion({ platform, version: next.version, code: next.code, sha256, meta: next.meta, installedBy: actor.adminId === null ? null : String(actor.adminId), origin: next.origin });
  await r.prune(platform, [versionId, before.current.id, ...(before.previous ? [before.previous.id] : [])]);
  const staged = { platform, versionId, version: next.version, current: before.current.version };
  await audit.record(actor, { action: "plugin.stage", targetType: "plugin", targetId: platform, detail: { ...staged, sha256, origin: next.origin } }, tx);
  return staged;
}
