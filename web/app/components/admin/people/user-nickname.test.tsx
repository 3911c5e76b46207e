import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NICKNAME_UNSET_HINT, UserNickname } from "./UserNickname";

describe("the member table's 昵称 cell (issue 25)", () => {
  it("shows a set nickname as it is", () => {
    const html = renderToString(<UserNickname nickname="夜店王" username="dj_wang" />);
    expect(html).toContain("夜店王");
    expect(html).not.toContain("dj_wang");
  });

  it("shows a new member without a nickname by the name the site shows, not '-'", () => {
    const html = renderToString(<UserNickname nickname="" username="dj_wang" />);
    expect(html).toContain("dj_wang");
    expect(html).toContain(`title="${NICKNAME_UNSET_HINT}"`);
    expect(html).not.toMatch(/>-</u);
  });
});
