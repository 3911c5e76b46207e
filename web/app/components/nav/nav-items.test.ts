import { describe, expect, it } from "vitest";
import { activeNavKey, type NavItem } from "./nav-items";

describe("navigation items", () => {
  it("highlight the item or sub-item of the current page", () => {
    const items: NavItem[] = [
      { label: "首页", to: "/" },
      { label: "串烧", to: "/sort/a", items: [{ label: "慢摇", to: "/sort/b" }] },
    ];
    expect(activeNavKey(items, "/")).toBe("/");
    expect(activeNavKey(items, "/sort/a")).toBe("/sort/a");
    expect(activeNavKey(items, "/sort/b")).toBe("/sort/b");
    expect(activeNavKey(items, "/user/profile")).toBeUndefined();
  });
});
