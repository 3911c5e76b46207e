/*
 * Texts and constants of login and registration without zod: the public pages' login form
 * imports these at first load, and the zod fields (auth.ts, account-fields.ts, which re-export
 * them) only when it validates.
 */

/** The account fields' messages (spec section 5). */
export const fieldMessages = {
  accountRequired: "请输入用户名/邮箱",
  adminAccountRequired: "请输入账号",
  passwordRequired: "请输入密码",
  captchaRequired: "请输入验证码",
  usernameRequired: "请输入用户名",
  usernameLength: "用户名长度在 3 到 20 个字符",
  adminAccountLength: "账号长度在 3 到 20 个字符",
  emailRequired: "请输入邮箱",
  emailFormat: "请输入正确的邮箱格式",
  registerPasswordMin: "密码长度不能小于6位",
  registerConfirmRequired: "请再次输入密码",
  registerConfirmMismatch: "两次输入密码不一致!",
  passwordLength: "密码长度必须在6-30个字符之间",
  confirmMismatch: "两次输入的密码不一致",
  changePasswordLength: "密码长度必须在6到30个字符之间",
  oldPasswordRequired: "请输入原密码",
  nicknameRequired: "请输入昵称",
  nicknameLength: "长度在 2 到 20 个字符",
  bioLength: "个人简介不能超过200个字符",
  codeRequired: "请输入验证码",
  codeLength: "验证码长度不正确",
} as const;

/** Where the captcha image is served (spec section 7): `GET /captcha.html?t={timestamp}`. */
export const CAPTCHA_PATH = "/captcha.html";

/** Spec section 4 / 9: the login captcha is required once `iscaptcha` reaches this. */
export const CAPTCHA_THRESHOLD = 5;

/** Minutes a login lock lasts; the message below names it. */
export const LOGIN_LOCK_MINUTES = 15;

/** Texts of login and register (spec sections 7, 8; clear Chinese where the spec has none). */
export const authMessages = {
  loginOk: "登录成功",
  loginFailed: "登录失败",
  loginUnavailable: "登录失败，请稍后重试",
  captchaRequired: fieldMessages.captchaRequired,
  captchaWrong: "验证码错误",
  loginLocked: `登录失败次数过多，请${LOGIN_LOCK_MINUTES}分钟后再试`,
  accountDisabled: "账号已被禁用",
  registerOk: "注册成功，请登录",
  registerFailed: "注册失败",
  usernameTaken: "用户名已被注册",
  emailTaken: "邮箱已被注册",
  registerTooOften: "注册过于频繁，请1小时后再试",
  logoutFailed: "退出失败，请重试",
} as const;
