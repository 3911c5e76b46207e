import type { SourceCanaryAnswer } from "@contracts/source-health";
import { formatAdminTime } from "../admin-time";

/** The canary's verdicts as the back office says them (ADR 0049): the word and the tag's colour. */
export const CANARY_STATE_TEXT: Record<SourceCanaryAnswer["state"], [string, string]> = {
  ok: ["正常", "green"],
  outage: ["站点故障", "red"],
  blocked: ["被拦截", "volcano"],
  drift: ["页面改版", "gold"],
};

export const CANARY_STATE_HINT: Record<SourceCanaryAnswer["state"], string> = {
  ok: "搜索、榜单、播放与音频均符合预期",
  outage: "源站无法连接、超时或返回 5xx：等待站点恢复",
  blocked: "源站拒绝访问（403、验证码或人机验证）：调整请求头或访问频率",
  drift: "源站有回应，但页面解析不到内容或不符合预期：适配器或插件需要修复",
};

/** The checks by name, in the order they run. */
export const CANARY_STEP_TEXT: Record<string, string> = {
  "search-ascii": "英文搜索",
  "search-chinese": "中文搜索",
  "list-1": "榜单/分类第 1 页",
  "list-2": "榜单/分类第 2 页",
  play: "解析播放地址",
  media: "读取音频开头",
};

export const CHECK_STATE_TEXT: Record<SourceCanaryAnswer["checks"][number]["state"], string> = {
  ok: "通过",
  outage: "站点故障",
  blocked: "被拦截",
  drift: "页面改版",
  skipped: "跳过",
};

export interface CanarySummary {
  text: string;
  color: string;
  hint: string;
  since: string;
  lastOk: string;
  at: string;
  /** The failing step in words and its detail, null when ok. */
  failing: { step: string; detail: string } | null;
}

const time = (iso: string | null) => (iso ? formatAdminTime(Date.parse(iso) / 1000) : "从未");

/** What the sources screen and the dashboard say of a source's last canary; null before the first. */
export function canarySummary(canary: SourceCanaryAnswer | null | undefined): CanarySummary | null {
  if (!canary) return null;
  const [text, color] = CANARY_STATE_TEXT[canary.state];
  const failed = canary.checks.find((c) => !c.ok);
  return {
    text,
    color,
    hint: CANARY_STATE_HINT[canary.state],
    since: time(canary.since),
    lastOk: time(canary.lastOkAt),
    at: time(canary.at),
    failing: canary.failingStep ? { step: CANARY_STEP_TEXT[canary.failingStep] ?? canary.failingStep, detail: failed?.detail ?? "" } : null,
  };
}
