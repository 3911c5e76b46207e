import { z } from "zod";

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
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const accountMessages = {
  notLoggedIn: "请先登录",
  accountDisabled: "账号已被禁用",
  logoutOk: "退出成功",
} as const;

/** Where a default avatar comes from when the member has not uploaded one. */
export const DEFAULT_AVATAR = "/img/noimage.png";
