import { CODE_VALID_MINUTES, type EmailCodeEvent } from "@contracts/account-profile";
import { escapeHtml } from "../../lib/escape-html.js";
import type { OutgoingMail } from "./outbox.js";

const PURPOSE: Record<EmailCodeEvent, { subject: string; doing: string }> = {
  resetpwd: { subject: "找回密码验证码", doing: "找回登录密码" },
  verifyemail: { subject: "验证当前邮箱", doing: "修改绑定邮箱，需要先验证当前邮箱" },
  changeemail: { subject: "绑定新邮箱验证码", doing: "将此邮箱绑定为新的登录邮箱" },
};

/** The mail carrying an email code, in plain text and a simple HTML version, naming the site by its title. */
export function codeMail(to: string, event: EmailCodeEvent, code: string, site: { publicUrl: string; siteTitle: string }): OutgoingMail {
  const { publicUrl, siteTitle } = site;
  const { subject, doing } = PURPOSE[event];
  const lines = [
    "您好，",
    `您正在${doing}，验证码为：${code}`,
    `验证码${CODE_VALID_MINUTES}分钟内有效，仅可使用一次。请勿将验证码告诉他人。`,
    "如非本人操作，请忽略本邮件，您的账号不会有任何变化。",
  ];
  return {
    to,
    fromName: siteTitle,
    subject: `【${siteTitle}】${subject}`,
    text: `${lines.join("\n\n")}\n\n${siteTitle} ${publicUrl}\n`,
    // Our own texts, the digits of the code and our address; the site title is an admin's text: escaped.
    html:
      `<p>${lines[0]}</p><p>您正在${doing}，验证码为：<b style="font-size:20px;letter-spacing:4px">${code}</b></p>` +
      `<p>${lines[2]}</p><p>${lines[3]}</p><p><a href="${publicUrl}">${escapeHtml(siteTitle)}</a></p>`,
  };
}
