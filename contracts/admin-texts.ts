/** The back office's roles and session messages, without zod (browser code imports this file). */

export const ADMIN_ROLE_CODES = ["super", "editor"] as const;
export type AdminRoleCode = (typeof ADMIN_ROLE_CODES)[number];
export const ADMIN_ROLE_NAMES: Record<AdminRoleCode, string> = { super: "超级管理员", editor: "编辑" };

export const adminMessages = {
  notLoggedIn: "请先登录管理后台",
  accountDisabled: "管理员账号已被禁用",
  superOnly: "需要超级管理员权限",
  mustChangePassword: "请先修改初始密码：该账号的密码由系统首次启动时生成或由超级管理员重置，修改密码后才能继续操作",
  logoutOk: "退出成功",
} as const;
