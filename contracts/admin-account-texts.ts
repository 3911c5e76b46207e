/**
 * Texts and constants of the back office's own accounts (issue 12: admin login, own password,
 * the admins screen, the audit trail), without zod: browser code imports this file.
 */

import type { AuditAction } from "./audit-labels";

/** localStorage key of the account name the admin login remembers (记住账号): the name only. */
export const ADMIN_REMEMBER_KEY = "admin_login_account";
/** sessionStorage key of the admin login's last failure count (its captcha shows from 5). */
export const ADMIN_LOGIN_FAILURES_KEY = "admin_login_iscaptcha";

/** The login record's location of a private, loopback or link-local address. */
export const PRIVATE_LOCATION = "内网IP";

export const adminAccountMessages = {
  loginOk: "登录成功",
  loginFailed: "登录失败",
  accountRequired: "请输入账号",
  passwordChanged: "密码修改成功",
  mustChangeTitle: "请先修改初始密码",
  mustChangeNote: "该账号的密码由系统首次启动时生成（显示在启动时的终端上，或写在数据目录的 initial-admin-password.txt 中），或由超级管理员重置。修改密码后才能进行其他操作。",
  oldPasswordWrong: "原密码错误",
  samePassword: "新密码不能与原密码相同",
  created: "添加成功",
  saved: "保存成功",
  enabled: "已启用",
  disabled: "已禁用",
  passwordReset: "密码已重置",
  notFound: "管理员不存在",
  usernameTaken: "管理员账号已存在",
  roleRequired: "请选择角色",
  badStatus: "状态只能是 0 或 1",
  selfDisable: "不能禁用自己的账号",
  selfDemote: "不能取消自己的超级管理员权限",
  lastSuper: "至少需要保留一个启用的超级管理员",
} as const;

/** The audit trail's actions written by the admin accounts (other modules add theirs). */
export const ADMIN_AUDIT_ACTIONS = {
  create: "admin.create",
  update: "admin.update",
  status: "admin.status",
  resetPassword: "admin.reset_password",
  password: "admin.password",
} as const satisfies Record<string, AuditAction>;

