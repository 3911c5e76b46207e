import type { z } from "zod";

/** At most this many problems are named: the message stays readable and bounded whatever was sent. */
const MAX_ISSUES = 5;
const MAX_KEY_CHARS = 40;

const shortKey = (key: PropertyKey) => {
  const s = String(key);
  return s.length > MAX_KEY_CHARS ? `${s.slice(0, MAX_KEY_CHARS)}…` : s;
};

/** One issue in Chinese: a message of ours (a refine's) as is, zod's own English replaced. */
function issueText(issue: z.core.$ZodIssue): string {
  if (/[\u3400-\u9fff]/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "缺少此项" : `类型不正确 (应为 ${issue.expected})`;
    case "unrecognized_keys":
      return `不支持的字段 ${issue.keys.slice(0, MAX_ISSUES).map(shortKey).join(", ")}`;
    case "too_small":
      return "太短或太小";
    case "too_big":
      return "太长或太大";
    case "invalid_format":
      return "格式不正确";
    case "invalid_value":
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
      return "取值不正确";
    case "not_multiple_of":
      return "取值不正确";
    default:
      return "不正确";
  }
}

/**
 * A zod error as one Chinese line naming each field's path (`search.extract.fields.id.attr：类型不正确`),
 * for configurations too rich for one fixed message. Never zod's English text, never more than
 * a few issues.
 */
export function zodIssuesInChinese(error: z.ZodError): string {
  const lines = error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(shortKey).join(".");
    return path ? `${path}：${issueText(issue)}` : issueText(issue);
  });
  if (error.issues.length > MAX_ISSUES) lines.push(`等 ${error.issues.length} 处问题`);
  return lines.join("；");
}
