import type { PluginAdminAnswer } from "@contracts/plugin-admin";
import { capabilitiesOf } from "./plugin-adapter.js";
import type { PluginWithVersion } from "./repo.js";

/** A plugin as the back office's calls answer it: what it says of itself, its switches and versions. */
export function view(plugin: PluginWithVersion): PluginAdminAnswer {
  const meta = plugin.current.meta;
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  const userVariables = Array.isArray(meta.userVariables)
    ? meta.userVariables.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null && typeof v.key === "string").map((v) => ({ key: String(v.key), name: text(v.name) ?? String(v.key), hint: text(v.hint) }))
    : [];
  return {
    platform: plugin.platform,
    version: plugin.current.version,
    author: text(meta.author),
    srcUrl: text(meta.srcUrl),
    source: plugin.sourceCode,
    replacesBuiltin: plugin.replacesBuiltin,
    enabled: plugin.enabled,
    disabledReason: plugin.disabledReason,
    capabilities: capabilitiesOf(meta),
    userVariables,
    variables: plugin.variables,
    previousVersion: plugin.previous?.version ?? null,
    origin: plugin.origin,
    sha256: plugin.current.sha256,
    installedAt: plugin.current.createdAt.toISOString(),
  };
}
