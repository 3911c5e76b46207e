import { playerMessages } from "@contracts/player-texts";

/** A url the player can try: a site path or http(s). Anything else is 媒体地址无效 at once. */
export function isPlayableUrl(url: string): boolean {
  if (!url || !url.trim()) return false;
  if (url.startsWith("/") && !url.startsWith("//")) return true;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The media element's error as the spec's text. Chromium reports a url that answers 404 or
 * is not media at all as SRC_NOT_SUPPORTED, so that reads 媒体地址无效; network and decode
 * failures mid-play are 播放出错.
 */
export function mediaErrorText(code: number | undefined): string | null {
  switch (code) {
    case 1: // MEDIA_ERR_ABORTED: we changed the source ourselves
      return null;
    case 4: // MEDIA_ERR_SRC_NOT_SUPPORTED
      return playerMessages.badUrl;
    default: // 2 network, 3 decode
      return playerMessages.playbackError;
  }
}

/** play()'s rejection: a blocked autoplay is a warning; a replaced source is nothing. */
export function playRejectionText(err: unknown): { warning?: string; error?: string } | null {
  const name = (err as { name?: string } | null)?.name;
  if (name === "NotAllowedError") return { warning: playerMessages.autoplayBlocked };
  if (name === "AbortError") return null;
  // NotSupportedError follows an "error" event, which already names the cause.
  if (name === "NotSupportedError") return null;
  return { error: playerMessages.playFailed };
}

/** hls.js fatal errors: a manifest that cannot be fetched is a bad url, the rest 播放出错. */
export function hlsErrorText(type: string, details: string): string {
  if (type === "networkError" && /manifest/i.test(details)) return playerMessages.badUrl;
  return playerMessages.playbackError;
}
