import type { CatalogueItem } from "@contracts/catalogue-item";
import { describe, expect, it } from "vitest";
import { fromCatalogueItem, HLS_MIME, isHls } from "../player/player-item";
import { failedSourcesNotice, isExternalHit, siteLogo, sourceName } from "./search-api";

const sites = [
  { code: "djuu", name: "DJUU", logo: "/media/demo/logos/djuu.png" },
  { code: "vvvdj", name: "清风DJ", logo: "/media/demo/logos/vvvdj.png" },
];
const hit = (over: Partial<CatalogueItem>): CatalogueItem => ({
  id: 1, name: "夜曲", artist: "周杰伦", cover: "", palyurl: "/media/demo/yequ.m4a", playtype: "mp3", kind: "single",
  channel: "local", website: "本站", websitelogo: "", category: "", cidurl: "", time: 0, weburl: "", url: "/sutie/1.html",
  vipdown: "0", price: 0, view_count: 0, source: "local", ...over,
});
const external = hit({
  id: "vvvdj:201001", channel: "vvvdj", source: "vvvdj", website: "清风DJ", url: "https://www.vvvdj.com/play/201001.html",
  palyurl: "/api/forntend/source-play?source=vvvdj&id=201001", mimeType: HLS_MIME,
});

describe("search hits from several sources", () => {
  it("names failed sources by their shown name, never turning the answer into a failure", () => {
    expect(failedSourcesNotice({ errors: [], list: [hit({})] }, sites)).toBeNull();
    expect(failedSourcesNotice({ errors: [{ source: "djuu", msg: "搜索超时" }], list: [hit({})] }, sites)).toBe("DJUU 暂时无法访问，已显示其他来源的结果");
    // A code the site list lacks: a hit's website names it, else the code itself.
    expect(
      failedSourcesNotice({ errors: [{ source: "djuu", msg: "搜索失败" }, { source: "mirror", msg: "源站暂时不可用" }, { source: "x9", msg: "搜索失败" }], list: [hit({ source: "mirror", website: "镜像DJ" })] }, sites),
    ).toBe("DJUU、镜像DJ、x9 暂时无法访问，已显示其他来源的结果");
    expect(failedSourcesNotice({ errors: [{ source: "vvvdj", msg: "搜索失败" }], list: [] }, sites)).toBe("清风DJ 暂时无法访问，请稍后再试");
    expect(sourceName("vvvdj", sites, [])).toBe("清风DJ");
  });

  it("takes a hit's logo, else its site's from the site list", () => {
    expect(siteLogo(external, sites)).toBe("/media/demo/logos/vvvdj.png");
    expect(siteLogo({ ...external, websitelogo: "/own.png" }, sites)).toBe("/own.png");
    // A catalogue item collected from djuu shows djuu's logo.
    expect(siteLogo(hit({ channel: "djuu" }), sites)).toBe("/media/demo/logos/djuu.png");
    expect(siteLogo(hit({ channel: "nowhere" }), sites)).toBe("");
    expect([isExternalHit(external), isExternalHit(hit({}))]).toEqual([true, false]);
  });

  it("plays an external hit through our route, as HLS when the hit says so", () => {
    const entry = fromCatalogueItem(external);
    expect(entry).toMatchObject({ id: "vvvdj:201001", url: "/api/forntend/source-play?source=vvvdj&id=201001", mimeType: HLS_MIME, page: external.url });
    expect(isHls(entry)).toBe(true);
    // Without the hint the route's address says nothing: audio, as before.
    expect(fromCatalogueItem({ ...external, mimeType: undefined }).mimeType).toBe("audio/mpeg");
  });
});
