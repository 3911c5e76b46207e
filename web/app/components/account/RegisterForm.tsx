import { emailField, fieldMessages, registerPasswordField, usernameField } from "@contracts/account-fields";
import { authMessages, registerConfirmField } from "@contracts/auth";
import { Button, Form, Input, type FormRule } from "antd";
import { useEffect, useState } from "react";
import { zodRule } from "../../lib/form-rules";
import { userCall } from "../../lib/user-api";
import { useSiteMessage } from "../feedback";
import styles from "./account-form.module.css";
import { CaptchaField } from "./CaptchaField";

/** The confirmation equals the password (spec: 两次输入密码不一致!). */
const confirmMatches: FormRule = ({ getFieldValue }) => ({
  validator: async (_rule, value) => {
    if (value && value !== getFieldValue("password")) throw new Error(fieldMessages.registerConfirmMismatch);
  },
});

interface RegisterValues {
  username: string;
  email: string;
  password: string;
  confirm: string;
  captcha: string;
}

const REGISTER_FIELDS = ["username", "email", "password", "confirm", "captcha"] as const;

/**
 * The dialog's register tab (spec sections 2, 5): username, email, password, confirmation and
 * captcha (always). Success says 注册成功，请登录 and hands the username to the login tab; a
 * refusal shows the server's message and loads a new captcha (the old one is used up).
 */
export function RegisterForm({ active = true, onRegistered }: { active?: boolean; onRegistered?: (username: string) => void }) {
  const [form] = Form.useForm<RegisterValues>();
  const [loading, setLoading] = useState(false);
  const [stamp, setStamp] = useState(0);
  const message = useSiteMessage();

  const refreshCaptcha = () => {
    setStamp(Date.now());
    form.setFieldValue("captcha", "");
  };

  // A new image each time the tab comes on screen (the login tab's captcha replaces this one).
  // Leaving the tab takes its field messages with it (the values stay for coming back).
  useEffect(() => {
    if (active) refreshCaptcha();
    else form.setFields(REGISTER_FIELDS.map((name) => ({ name, errors: [] })));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  async function submit(values: RegisterValues) {
    setLoading(true);
    try {
      const answer = await userCall<null>("POST", "/api/user/register", { ...values }, { anonymous: true });
      if (answer.code === 1) {
        void message.success(answer.msg || authMessages.registerOk);
        form.resetFields();
        onRegistered?.(values.username.trim());
        return;
      }
      void message.error(answer.msg || authMessages.registerFailed);
      refreshCaptcha();
    } catch {
      void message.error(`${authMessages.registerFailed}，请稍后重试`);
      refreshCaptcha();
    } finally {
      setLoading(false);
    }
  }

  return (
    <Form form={form} layout="vertical" requiredMark={false} name="register" className={styles.form} onFinish={submit}>
      <Form.Item label="用户名" name="username" rules={[zodRule(usernameField)]}>
        <Input placeholder="请输入用户名" autoComplete="username" maxLength={20} />
      </Form.Item>
      <Form.Item label="邮箱" name="email" rules={[zodRule(emailField)]}>
        <Input placeholder="请输入邮箱" autoComplete="email" maxLength={254} />
      </Form.Item>
      <Form.Item label="密码" name="password" rules={[zodRule(registerPasswordField)]}>
        <Input.Password placeholder="请输入密码" autoComplete="new-password" maxLength={128} />
      </Form.Item>
      <Form.Item
        label="确认密码"
        name="confirm"
        dependencies={["password"]}
        rules={[zodRule(registerConfirmField), confirmMatches]}
      >
        <Input.Password placeholder="请再次输入密码" autoComplete="new-password" maxLength={128} />
      </Form.Item>
      <CaptchaField formName="register" stamp={stamp} onRefresh={refreshCaptcha} />
      <Button type="primary" htmlType="submit" block size="large" loading={loading}>
        {loading ? "注册中..." : "注册"}
      </Button>
    </Form>
  );
}
