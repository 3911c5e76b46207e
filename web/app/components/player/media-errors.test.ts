import { describe, expect, it } from "vitest";
import { hlsErrorText, isPlayableUrl, mediaErrorText, playRejectionText } from "./media-errors";

describe("player error texts (spec section 8)", () => {
  it("accepts site paths and http(s) urls only", () => {
    expect(["/media/a.mp3", "https://cdn.example.cn/a.m3u8", "http://x.cn/v.mp4"].every(isPlayableUrl)).toBe(true);
    expect(["", "  ", "javascript:alert(1)", "//evil.example/a.mp3", "data:audio/mp3;base64,AA", "ftp://x/a.mp3", "a.mp3"].some(isPlayableUrl)).toBe(false);
  });

  it("names media element errors with the spec's texts", () => {
    expect(mediaErrorText(4)).toBe("媒体地址无效");
    expect(mediaErrorText(2)).toBe("播放出错");
    expect(mediaErrorText(3)).toBe("播放出错");
    expect(mediaErrorText(1)).toBeNull();
  });

  it("tells a blocked autoplay (a warning) from a failed play", () => {
    expect(playRejectionText({ name: "NotAllowedError" })).toEqual({ warning: "点击播放按钮开始播放" });
    expect(playRejectionText({ name: "AbortError" })).toBeNull();
    expect(playRejectionText({ name: "NotSupportedError" })).toBeNull();
    expect(playRejectionText(new Error("boom"))).toEqual({ error: "播放失败，请稍后重试" });
  });

  it("names hls.js fatal errors", () => {
    expect(hlsErrorText("networkError", "manifestLoadError")).toBe("媒体地址无效");
    expect(hlsErrorText("networkError", "fragLoadError")).toBe("播放出错");
    expect(hlsErrorText("mediaError", "bufferAppendError")).toBe("播放出错");
  });
});
