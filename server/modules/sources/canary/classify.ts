import { SourceError, type FetchResponse } from "../types.js";

/** What a canary found (ADR 0049). `ok` first: the order the screen sorts by is the API's. */
export const CANARY_STATES = ["ok", "outage", "blocked", "drift"] as const;
export type CanaryState = (typeof CANARY_STATES)[number];
/** A check's own state; `skipped` when the source has nothing to check there. */
export type CheckState = CanaryState | "skipped";

export type SeenAnswer = Pick<FetchResponse, "url" | "status" | "headers" | "bytes">;

/** Words of a firewall's challenge or captcha page (Cloudflare, Geetest, Chinese WAFs). */
const CHALLENGE_WORDS = /captcha|验证码|人机验证|安全验证|滑块验证|访问过于频繁|请求过于频繁|访问验证|challenge-platform|cf-chl|just a moment|attention required|geetest|hcaptcha|recaptcha/iu;
/** A real page may carry a login form's 验证码: only a short page, or its title, counts. */
const CHALLENGE_PAGE_MAX_BYTES = 16 * 1024;
const BLOCKING_STATUSES = new Set([403, 429, 451]);

export function isChallenge(answer: SeenAnswer): boolean {
  if (BLOCKING_STATUSES.has(answer.status)) return true;
  if ((answer.headers["cf-mitigated"] ?? "").toLowerCase() === "challenge") return true;
  const text = answer.bytes.subarray(0, 64 * 1024).toString("utf8");
  const title = /<title[^>]*>([^<]*)<\/title>/iu.exec(text)?.[1] ?? "";
  if (CHALLENGE_WORDS.test(title)) return true;
  return answer.bytes.length <= CHALLENGE_PAGE_MAX_BYTES && CHALLENGE_WORDS.test(text);
}

/**
 * Which state a failed check is in, from what was thrown (if anything) and the answers the step
 * got: a challenge anywhere is `blocked` (a 503 "Just a moment" too); no answer at all
 * (DNS, refused, timeout) or a 5xx is `outage`; anything else the site answered is `drift`.
 */
export function classify(error: unknown, answers: readonly SeenAnswer[]): Exclude<CanaryState, "ok"> {
  if (answers.some(isChallenge)) return "blocked";
  if (error instanceof SourceError) {
    if (error.kind === "blocked") return "blocked";
    // "busy": the plugin sandbox had no time for the check before its time ran out; as a timeout.
    if (error.kind === "network" || error.kind === "timeout" || error.kind === "busy") return "outage";
    if (error.kind === "http" && (error.status ?? 0) >= 500) return "outage";
  }
  const last = answers.at(-1);
  if (last && last.status >= 500) return "outage";
  // A plugin that failed before any answer came back: its request never got one.
  if (error instanceof SourceError && error.kind === "plugin" && answers.length === 0 && /ERR_NETWORK|ECONN|ENOTFOUND|timed? ?out/iu.test(error.message)) return "outage";
  return "drift";
}

/** Audio by its first bytes (m4a/mp4, mp3, flac, ogg) or an HLS playlist. */
export function sniffMedia(head: Buffer): string | null {
  if (head.subarray(0, 7).toString("latin1") === "#EXTM3U") return "hls";
  if (head.subarray(4, 8).toString("latin1") === "ftyp") return "m4a";
  if (head.subarray(0, 3).toString("latin1") === "ID3") return "mp3";
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) return "mp3";
  if (head.subarray(0, 4).toString("latin1") === "fLaC") return "flac";
  if (head.subarray(0, 4).toString("latin1") === "OggS") return "ogg";
  return null;
}
