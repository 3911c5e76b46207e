import { LockOutlined, UserOutlined } from "@ant-design/icons";
import { fieldMessages } from "@contracts/account-fields";
import { ADMIN_LOGIN_FAILURES_KEY, ADMIN_REMEMBER_KEY, adminAccountMessages } from "@contracts/admin-account-texts";
import type { AdminLoginResult } from "@contracts/admin-accounts";
import { authMessages, CAPTCHA_THRESHOLD } from "@contracts/auth";
import { DEFAULT_SITE_SETTINGS } from "@contracts/site";
import { App, Button, Checkbox, Form, Input } from "antd";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { CaptchaField } from "../../components/account/CaptchaField";
import { AntdScope } from "../../components/AntdScope";
import { takeAdminFlash } from "../../components/admin/admin-flash";
import { Logo } from "../../components/nav/Logo";
import { GuardGate } from "../../guards/GuardGate";
import { adminCall } from "../../lib/admin-api";
import { appContext } from "../../lib/app-context";
import { pageMeta } from "../../lib/site";
import { ADMIN_TOKEN_KEY } from "../../session/keys";
import { useSession } from "../../session/store";
import styles from "./login.module.css";
import type { Route } from "./+types/login";

/** The site settings for the title (ADR 0066): this page is outside the admin layout that carries them. */
export async function loader({ context }: Route.LoaderArgs) {
  const site = await context.get(appContext).services.siteSettings.get().catch(() => DEFAULT_SITE_SETTINGS);
  return { site };
}

export const meta = ({ loaderData }: Route.MetaArgs) => pageMeta("后台登录", undefined, loaderData?.site ?? DEFAULT_SITE_SETTINGS);

interface Values {
  username: string;
  password: string;
  captcha?: string;
  remember: boolean;
}

type LoginAnswer = AdminLoginResult | { iscaptcha: number } | null;

const storedFailures = () => {
  const n = Number(window.sessionStorage.getItem(ADMIN_LOGIN_FAILURES_KEY));
  return Number.isFinite(n) ? n : 0;
};

/** Admin login, without the admin side menu. antd's <App> gives the form its messages. */
export default function AdminLogin() {
  return (
    <AntdScope>
      <App>
        <div className={styles.page}>
          <GuardGate>
            <AdminLoginCard />
          </GuardGate>
        </div>
      </App>
    </AntdScope>
  );
}

/**
 * Account, password, 记住账号 (the account name only, in localStorage) and, from the 5th failed
 * attempt (the server's `iscaptcha`, kept for the tab), the captcha; every failure loads a new
 * image. Success keeps the admin token and goes to /panda/.
 */
function AdminLoginCard() {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);
  const [failures, setFailuresState] = useState(0);
  const [stamp, setStamp] = useState(0);
  const needCaptcha = failures >= CAPTCHA_THRESHOLD;

  const setFailures = (n: number) => {
    window.sessionStorage.setItem(ADMIN_LOGIN_FAILURES_KEY, String(n));
    setFailuresState(n);
  };
  const refreshCaptcha = () => {
    setStamp(Date.now());
    form.setFieldValue("captcha", "");
  };

  useEffect(() => {
    // 退出成功, from the layout the admin just left.
    const flash = takeAdminFlash();
    if (flash) void message.success(flash);
  }, [message]);

  useEffect(() => {
    setFailuresState(storedFailures());
    const remembered = window.localStorage.getItem(ADMIN_REMEMBER_KEY);
    if (remembered) form.setFieldsValue({ username: remembered, remember: true });
  }, [form]);

  useEffect(() => {
    if (needCaptcha) refreshCaptcha();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [needCaptcha]);

  async function submit(values: Values) {
    setLoading(true);
    try {
      const body = { username: values.username.trim(), password: values.password, ...(needCaptcha ? { captcha: values.captcha ?? "" } : {}) };
      const answer = await adminCall<LoginAnswer>("POST", "/api/pandaadmin/login", body, { anonymous: true });
      if (answer.code === 1 && answer.data && "token" in answer.data) {
        // 记住账号 keeps the name only, never the password.
        if (values.remember) window.localStorage.setItem(ADMIN_REMEMBER_KEY, body.username);
        else window.localStorage.removeItem(ADMIN_REMEMBER_KEY);
        setFailures(0);
        window.localStorage.setItem(ADMIN_TOKEN_KEY, answer.data.token);
        useSession.getState().setAdmin(answer.data.admin);
        void message.success(answer.msg || adminAccountMessages.loginOk);
        void navigate("/panda/", { replace: true });
        return;
      }
      if (answer.data && typeof answer.data.iscaptcha === "number") setFailures(answer.data.iscaptcha);
      // One toast for repeated failures (the same key replaces it), not a stack over the form.
      void message.error({ key: "admin-login", content: answer.msg || authMessages.loginFailed });
      // A shown captcha is used up by the attempt; one appearing now loads its first image itself.
      if (needCaptcha) refreshCaptcha();
    } catch {
      void message.error({ key: "admin-login", content: authMessages.loginUnavailable });
      if (needCaptcha) refreshCaptcha();
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className={styles.card}>
      <div className={styles.brand}>
        <Logo size={36} />
        <h1 className={styles.title}>后台登录</h1>
      </div>
      <Form form={form} layout="vertical" requiredMark={false} name="admin-login" size="large" onFinish={(v) => void submit(v)} initialValues={{ remember: false }}>
        <Form.Item label="账号" name="username" rules={[{ required: true, whitespace: true, message: fieldMessages.adminAccountRequired }]}>
          <Input prefix={<UserOutlined />} placeholder="请输入账号" autoComplete="username" maxLength={64} />
        </Form.Item>
        <Form.Item label="密码" name="password" rules={[{ required: true, message: fieldMessages.passwordRequired }]}>
          <Input.Password prefix={<LockOutlined />} placeholder="请输入密码" autoComplete="current-password" maxLength={128} />
        </Form.Item>
        {needCaptcha ? <CaptchaField formName="admin-login" stamp={stamp} onRefresh={refreshCaptcha} /> : null}
        <Form.Item name="remember" valuePropName="checked">
          <Checkbox>记住账号</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading}>
          {loading ? "登录中..." : "登录"}
        </Button>
      </Form>
    </div>
  );
}
