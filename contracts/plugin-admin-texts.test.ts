import { describe, expect, it } from "vitest";
import { BUILTIN_SOURCES } from "../server/modules/sources/registry";
import { PLUGIN_REPLACEABLE_BUILTINS, pluginAdminMessages } from "./plugin-admin-texts";

describe("the plugins screen's built-in choices", () => {
  it("are the server's built-in sites, with their names, and the message names them all", () => {
    expect(PLUGIN_REPLACEABLE_BUILTINS.map((b) => ({ code: b.code, name: b.name }))).toEqual(BUILTIN_SOURCES.map((s) => ({ code: s.code, name: s.name })));
    for (const b of PLUGIN_REPLACEABLE_BUILTINS) expect(pluginAdminMessages.unknownBuiltin).toContain(b.code);
  });
});
