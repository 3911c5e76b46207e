import { z } from "zod";
import { ADMIN_ROLE_CODES } from "./admin-texts";

export * from "./admin-texts";

/** The signed-in member as /api/user/isloging returns it (spec section 3, User). */
export const sessionUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  bio: z.string(),
  /** Unix seconds. */
  createTime: z.number().int(),
  /** 1 normal, 0 disabled. */
  status: z.number().int(),
  /** Coin (币) balance: priced downloads are paid from it. */
  coins: z.number().int(),
  /** VIP membership end (Unix seconds); null when never a member. VIP downloads need it in the future. */
  vipUntil: z.number().int().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * The signed-in back-office admin as `GET /api/pandaadmin/check` returns it (the web's
 * `AdminInfo` is a subset of it).
 */

export const sessionAdminSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  /** 1 normal, 0 disabled. */
  status: z.number().int(),
  /** super (超级管理员): everything; editor (编辑): content only. */
  role: z.enum(ADMIN_ROLE_CODES),
  /**
   * The account made at first start, until it changes its password: its other admin calls
   * answer 403 请先修改初始密码, and the back office opens the change-password dialog.
   */
  mustChangePassword: z.boolean(),
});
export type SessionAdmin = z.infer<typeof sessionAdminSchema>;

export const accountMessages = {
  notLoggedIn: "请先登录",
  accountDisabled: "账号已被禁用",
  logoutOk: "退出成功",
} as const;

/**
 * The back office's own texts. The spec gives none for a refused admin call; these say which
 * login is missing (a member's token never opens /panda).
 */

/** Where a default avatar comes from when the member has not uploaded one. */
export const DEFAULT_AVATAR = "/img/noimage.png";
