/**
 * The back office's users, comments, collected data and sources screens (issue 12): paths and
 * messages both sides know. No zod here: the browser imports this file.
 */
export const adminPeoplePaths = {
  users: "/api/pandaadmin/users/index",
  user: (id: number) => `/api/pandaadmin/users/${id}`,
  userStatus: (id: number) => `/api/pandaadmin/users/${id}/status`,
  userDownloads: (id: number) => `/api/pandaadmin/users/${id}/downloads`,
  comments: "/api/pandaadmin/comments/index",
  commentsHide: "/api/pandaadmin/comments/hide",
  commentsDelete: "/api/pandaadmin/comments/delete",
  collected: "/api/pandaadmin/collect/index",
  collectedProcess: "/api/pandaadmin/collect/process",
  collectedDelete: "/api/pandaadmin/collect/delete",
  collectStart: "/api/pandaadmin/collect/start",
  collectJobs: "/api/pandaadmin/collect/jobs",
  collectJob: (id: number) => `/api/pandaadmin/collect/jobs/${id}`,
  sources: "/api/pandaadmin/sources",
  source: (code: string) => `/api/pandaadmin/sources/${encodeURIComponent(code)}`,
  sourceTry: (code: string) => `/api/pandaadmin/sources/${encodeURIComponent(code)}/try`,
  sourcesHealth: "/api/pandaadmin/sources/health",
  /** 批量启用/停用 `{codes, enabled}`. */
  sourcesSwitch: "/api/pandaadmin/sources/switch",
  sourceCanary: (code: string) => `/api/pandaadmin/sources/${encodeURIComponent(code)}/canary`,
} as const;

export const adminUserMessages = {
  notFound: "用户不存在",
  saved: "保存成功",
  enabled: "已启用",
  disabled: "已禁用，该用户已被强制下线",
  badStatus: "状态只能是 0 (禁用) 或 1 (正常)",
  coinsRange: "金币须为 0 到 100000000 之间的整数",
  badVipUntil: "VIP 到期时间无效",
  nothingToChange: "没有要修改的内容",
  emailTaken: "该邮箱已被使用",
  nicknameTaken: "昵称已被使用",
} as const;

export const USER_STATUS_TEXT: Record<number, string> = { 1: "正常", 0: "禁用" };
export const COINS_MAX = 100_000_000;

export const adminCommentMessages = {
  idsRequired: "请选择要操作的评论",
  tooMany: "一次最多操作 100 条",
  hidden: "已隐藏",
  shown: "已显示",
} as const;

export const COMMENT_STATUS_TEXT: Record<string, string> = { normal: "正常", hidden: "已隐藏" };

export const sourceTryMessages = {
  keywordRequired: "请输入搜索关键词",
  notInUse: "该来源未启用或没有适配器",
} as const;

/** One row of the comments table (`GET /api/pandaadmin/comments/index`). */
export interface AdminCommentRow {
  id: number;
  item_id: number;
  item_title: string;
  user_id: number;
  username: string;
  nickname: string;
  parent_id: number | null;
  content: string;
  status: string;
  status_text: string;
  createtime: number;
}
