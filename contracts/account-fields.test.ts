import { describe, expect, it } from "vitest";
import { adminUsernameField, bioField, emailCodeField, emailField, fieldMessages, nicknameField, registerPasswordField, resetPasswordField, usernameField } from "./account-fields";

const message = (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message;

describe("account field rules (spec section 5)", () => {
  it("email: required, then the address pattern", () => {
    expect(message(emailField, "")).toBe(fieldMessages.emailRequired);
    expect(message(emailField, "not-an-address")).toBe(fieldMessages.emailFormat);
    expect(emailField.parse("  Dj@Example.cn ")).toBe("Dj@Example.cn");
  });
  it("username: 3 to 20 characters counted as people count them", () => {
    expect(message(usernameField, "ab")).toBe(fieldMessages.usernameLength);
    expect(usernameField.parse("夜店王")).toBe("夜店王");
    expect(message(usernameField, "一".repeat(21))).toBe(fieldMessages.usernameLength);
    expect(message(usernameField, "a b c")).toBeDefined();
  });
  it("a new admin's 账号: the username's rules in the back office's words (issue 25)", () => {
    expect(message(adminUsernameField, "")).toBe("请输入账号");
    expect(message(adminUsernameField, undefined)).toBe("请输入账号");
    expect(message(adminUsernameField, "ab")).toBe("账号长度在 3 到 20 个字符");
    expect(adminUsernameField.parse(" editor_li ")).toBe("editor_li");
  });
  it("passwords: register min 6; reset 6 to 30", () => {
    expect(message(registerPasswordField, "")).toBe(fieldMessages.passwordRequired);
    expect(message(registerPasswordField, "12345")).toBe(fieldMessages.registerPasswordMin);
    expect(message(resetPasswordField, "x".repeat(31))).toBe(fieldMessages.passwordLength);
    expect(resetPasswordField.parse("123456")).toBe("123456");
  });
  it("nickname 2 to 20, bio at most 200, codes 4 to 6", () => {
    expect(message(nicknameField, "王")).toBe(fieldMessages.nicknameLength);
    expect(message(bioField, "字".repeat(201))).toBe(fieldMessages.bioLength);
    expect(bioField.parse("字".repeat(200))).toHaveLength(200);
    expect(message(emailCodeField, "123")).toBe(fieldMessages.codeLength);
    expect(message(emailCodeField, "")).toBe(fieldMessages.codeRequired);
    expect(emailCodeField.parse("a1b2")).toBe("a1b2");
  });
});
