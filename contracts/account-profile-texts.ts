/**
 * Email codes, forgot password and the profile (issue 10; ADR 0018): the paths the web calls,
 * the limits both sides know and the answers' texts. No zod here: the browser imports this.
 */
export const profilePaths = {
  sendCode: "/api/user/send-code",
  checkCode: "/api/user/check-code",
  checkEmailExist: "/api/user/check-email-exist",
  resetPassword: "/api/user/reset-password",
  changePassword: "/api/user/change-password",
  changeEmail: "/api/user/change-email",
  checkNickname: "/api/user/check-nickname",
  updateProfile: "/api/user/update-profile",
  uploadAvatar: "/api/user/upload-avatar",
} as const;

/** Spec section 9: the send button counts down 60 seconds; the server refuses sooner resends. */
export const CODE_RESEND_SECONDS = 60;
/** How long a code (and the verified-current-address grant of an email change) is good for. */
export const CODE_VALID_MINUTES = 10;
/** Avatar uploads larger than this are refused before they are decoded. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

export const profileMessages = {
  codeSent: "验证码已发送",
  /** With the seconds left; the answer's data carries them as `retryAfter`. */
  codeTooSoon: (seconds: number) => `发送过于频繁，请${seconds}秒后再试`,
  codeIpCap: "验证码发送次数过多，请一小时后再试",
  codeSendFailed: "验证码发送失败，请稍后重试",
  codeWrong: "验证码错误",
  codeExpired: "验证码已过期，请重新获取",
  codeUsed: "验证码已使用，请重新获取",
  codeTooManyTries: "验证码错误次数过多，请重新获取",
  codeMissing: "请先获取验证码",
  codeOk: "验证码正确",
  emailRegistered: "该邮箱已注册",
  emailNotRegistered: "该邮箱未注册",
  emailTaken: "该邮箱已被使用",
  emailSameAsCurrent: "新邮箱不能与当前邮箱相同",
  verifyCurrentFirst: "请先验证当前邮箱",
  accountDisabled: "账号已被禁用",
  resetOk: "密码重置成功，请登录",
  resetFailed: "密码重置失败，请稍后重试",
  oldPasswordWrong: "原密码错误",
  oldPasswordTooManyTries: "原密码错误次数过多，请稍后再试",
  samePassword: "新密码不能与原密码相同",
  passwordChanged: "密码修改成功",
  passwordChangeFailed: "密码修改失败，请稍后重试",
  emailChanged: "邮箱修改成功",
  emailChangeFailed: "邮箱修改失败，请稍后重试",
  nicknameAvailable: "昵称可以使用",
  nicknameTaken: "昵称已被使用",
  saveOk: "保存成功",
  saveFailed: "保存失败，请稍后重试",
  avatarOk: "头像上传成功",
  avatarFailed: "头像上传失败，请稍后重试",
  avatarTooLarge: "头像图片不能超过5MB",
  avatarNotImage: "请上传图片文件",
  avatarMissing: "请选择头像图片",
} as const;

export const EMAIL_CODE_EVENTS = ["resetpwd", "changeemail", "verifyemail"] as const;
export type EmailCodeEvent = (typeof EMAIL_CODE_EVENTS)[number];
