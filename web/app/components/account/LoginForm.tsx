import { loginPasswordField } from "@contracts/account-fields";
import { authMessages, loginAccountField } from "@contracts/auth";
import type { LoginResult } from "@contracts/auth-schemas";
import { Button, Form, Input } from "antd";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { zodRule } from "../../lib/form-rules";
import { userCall } from "../../lib/user-api";
import { useSiteMessage } from "../feedback";
import styles from "./account-form.module.css";
import { CaptchaField } from "./CaptchaField";
import { captchaShown, useLoginCaptcha } from "./login-captcha-store";
import { useFinishLogin } from "./use-finish-login";

interface LoginValues {
  account: string;
  password: string;
  captcha?: string;
}

/** A failed login answers `{ iscaptcha }`; a successful one the token and the user too. */
type LoginAnswer = LoginResult | { iscaptcha: number } | null;

/**
 * The login form of the login page and the dialog's login tab (spec sections 2, 4, 7): account
 * (username or email) and password; the captcha appears once the server's `iscaptcha` reaches
 * 5, and every failed login loads a new image. The button reads 登录中... while waiting.
 */
export function LoginForm({
  onRegister,
  onNavigate,
  onSuccess,
  active = true,
  prefill,
}: {
  /** Opens the register form (a link under the fields). */
  onRegister?: () => void;
  /** Called when a link leaves the form (the dialog closes). */
  onNavigate?: () => void;
  /** Called once logged in (the dialog closes). */
  onSuccess?: () => void;
  /** Whether the form is on screen (the dialog's tab): a shown captcha is reloaded when it comes back. */
  active?: boolean;
  /** An account to fill in (the username just registered). */
  prefill?: { account: string };
}) {
  const [form] = Form.useForm<LoginValues>();
  const [loading, setLoading] = useState(false);
  const [stamp, setStamp] = useState(0);
  const failures = useLoginCaptcha((s) => s.failures);
  const setFailures = useLoginCaptcha((s) => s.setFailures);
  const needCaptcha = captchaShown(failures);
  const message = useSiteMessage();
  const finish = useFinishLogin(onSuccess);

  const refreshCaptcha = () => {
    setStamp(Date.now());
    form.setFieldValue("captcha", "");
  };

  // A new image whenever the captcha (re)appears: shown for the first time, or its tab is back.
  useEffect(() => {
    if (active && needCaptcha) refreshCaptcha();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, needCaptcha]);

  useEffect(() => {
    if (prefill) form.setFieldsValue({ account: prefill.account, password: "" });
  }, [prefill, form]);

  async function submit(values: LoginValues) {
    setLoading(true);
    try {
      const body = { account: values.account, password: values.password, ...(needCaptcha ? { captcha: values.captcha ?? "" } : {}) };
      const answer = await userCall<LoginAnswer>("POST", "/api/user/login", body, { anonymous: true });
      if (answer.code === 1 && answer.data && "token" in answer.data) {
        setFailures(0);
        await finish(answer.data, answer.msg);
        return;
      }
      if (answer.data && typeof answer.data.iscaptcha === "number") setFailures(answer.data.iscaptcha);
      // One toast for repeated failures (the same key replaces it), not a stack over the form.
      void message.error({ key: "login", content: answer.msg || authMessages.loginFailed });
      refreshCaptcha();
    } catch {
      void message.error({ key: "login", content: authMessages.loginUnavailable });
      refreshCaptcha();
    } finally {
      setLoading(false);
    }
  }

  return (
    <Form form={form} layout="vertical" requiredMark={false} name="login" className={styles.form} onFinish={submit}>
      <Form.Item label="用户名/邮箱" name="account" rules={[zodRule(loginAccountField)]}>
        <Input placeholder="请输入用户名/邮箱" autoComplete="username" maxLength={254} />
      </Form.Item>
      <Form.Item label="密码" name="password" rules={[zodRule(loginPasswordField)]}>
        <Input.Password placeholder="请输入密码" autoComplete="current-password" maxLength={128} />
      </Form.Item>
      {needCaptcha ? <CaptchaField formName="login" stamp={stamp} onRefresh={refreshCaptcha} /> : null}
      <div className={styles.links}>
        <Link to="/forgot-password" onClick={onNavigate}>
          忘记密码？
        </Link>
        {onRegister ? (
          <button type="button" className={styles.linkButton} onClick={onRegister}>
            注册账号
          </button>
        ) : null}
      </div>
      <Button type="primary" htmlType="submit" block size="large" loading={loading}>
        {loading ? "登录中..." : "登录"}
      </Button>
    </Form>
  );
}
