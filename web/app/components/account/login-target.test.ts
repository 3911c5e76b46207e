import { describe, expect, it } from "vitest";
import { loginTarget } from "./use-finish-login";

describe("loginTarget (where a login on /login goes)", () => {
  it("returns to the page the guest wanted", () => {
    expect(loginTarget("/user/profile")).toBe("/user/profile");
    expect(loginTarget("/user/downloads?page=2#top")).toBe("/user/downloads?page=2#top");
    expect(loginTarget("/sutie/12.html")).toBe("/sutie/12.html");
  });

  it("never leaves the site and never goes back to a guest page", () => {
    for (const wanted of [null, "", "https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "/login", "/login?x=1", "/forgot-password"]) {
      expect(loginTarget(wanted)).toBeNull();
    }
  });
});
