import type { MetaArgs } from "react-router";
import { Button, Form, Input, Space, Steps } from "antd";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { emailCodeField, emailField, fieldMessages, resetPasswordField } from "@contracts/account-fields";
import { profileMessages, profilePaths } from "@contracts/account-profile-texts";
import { requestEmailCode } from "../components/account/email-code-api";
import { SendCodeButton, useCountdown } from "../components/account/SendCodeButton";
import { useSiteMessage } from "../components/feedback";
import { PageHeading } from "../components/layout/PageHeading";
import { sameAs, zodRule } from "../lib/form-rules";
import { pageMeta } from "../lib/site";
import { siteOf } from "../lib/site-settings";
import { userCall } from "../lib/user-api";
import styles from "./account-page.module.css";
import { AntdScope } from "../components/AntdScope";

export const meta = ({ matches }: MetaArgs) => pageMeta("忘记密码", undefined, siteOf(matches));

const guest = { anonymous: true } as const;

/**
 * Forgot password (spec sections 2 and 4): step 0 the email (it must be registered; a code is
 * sent), step 1 the code, the new password and its confirmation, with a send-code button that
 * counts down and a way back. Success goes to /login.
 */
function ForgotPasswordForm() {
  const message = useSiteMessage();
  const navigate = useNavigate();
  const countdown = useCountdown();
  const [step, setStep] = useState(0);
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [emailForm] = Form.useForm<{ email: string }>();
  const [resetForm] = Form.useForm<{ captcha: string; password: string; confirm: string }>();

  const toStepOne = async ({ email: typed }: { email: string }) => {
    const address = typed.trim();
    setBusy(true);
    try {
      const exists = await userCall("POST", profilePaths.checkEmailExist, { email: address }, guest);
      if (exists.code !== 1) {
        emailForm.setFields([{ name: "email", errors: [exists.msg || profileMessages.emailNotRegistered] }]);
        return;
      }
      // A code sent within the last minute still counts: step 1 then shows the seconds left.
      const wait = await requestEmailCode(message, "resetpwd", address);
      if (wait === null) return;
      countdown.start(wait);
      setEmail(address);
      setStep(1);
    } catch {
      void message.error(profileMessages.codeSendFailed);
    } finally {
      setBusy(false);
    }
  };

  const reset = async (values: { captcha: string; password: string }) => {
    setBusy(true);
    try {
      const res = await userCall("POST", profilePaths.resetPassword, { email, captcha: values.captcha.trim(), password: values.password }, guest);
      if (res.code !== 1) return void message.error(res.msg || profileMessages.resetFailed);
      void message.success(res.msg || profileMessages.resetOk);
      void navigate("/login");
    } catch {
      void message.error(profileMessages.resetFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.card}>
      <PageHeading title="忘记密码">
        {step === 0 ? "请输入注册时使用的邮箱，我们将发送验证码" : `验证码已发送至 ${email}，10分钟内有效`}
      </PageHeading>
      <Steps size="small" current={step} items={[{ title: "验证邮箱" }, { title: "重置密码" }]} style={{ marginBottom: 24 }} />
      {step === 0 ? (
        <Form form={emailForm} layout="vertical" requiredMark={false} name="forgot-email" onFinish={toStepOne} initialValues={{ email }}>
          <Form.Item label="邮箱" name="email" rules={[zodRule(emailField)]}>
            <Input placeholder="请输入邮箱" autoComplete="email" inputMode="email" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={busy}>
            下一步
          </Button>
          <div style={{ marginTop: 16, textAlign: "center", fontSize: 13 }}>
            想起密码了？<Link to="/login">返回登录</Link>
          </div>
        </Form>
      ) : (
        <Form form={resetForm} layout="vertical" requiredMark={false} name="forgot-reset" onFinish={reset}>
          <Form.Item label="邮箱" htmlFor="forgot-reset-email">
            <Input id="forgot-reset-email" value={email} disabled />
          </Form.Item>
          <Form.Item label="验证码" required>
            <Space.Compact style={{ width: "100%" }}>
              <Form.Item name="captcha" noStyle rules={[zodRule(emailCodeField)]}>
                <Input placeholder="请输入验证码" maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
              </Form.Item>
              <SendCodeButton countdown={countdown} onSend={() => requestEmailCode(message, "resetpwd", email)} />
            </Space.Compact>
          </Form.Item>
          <Form.Item label="新密码" name="password" rules={[zodRule(resetPasswordField)]}>
            <Input.Password placeholder="6-30个字符" autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="确认密码"
            name="confirm"
            dependencies={["password"]}
            rules={[{ required: true, message: fieldMessages.registerConfirmRequired }, sameAs("password", fieldMessages.confirmMismatch)]}
          >
            <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" />
          </Form.Item>
          <div style={{ display: "flex", gap: 12 }}>
            <Button size="large" onClick={() => setStep(0)} disabled={busy} style={{ flex: 1 }}>
              上一步
            </Button>
            <Button type="primary" htmlType="submit" size="large" loading={busy} style={{ flex: 2 }}>
              确认重置
            </Button>
          </div>
        </Form>
      )}
    </div>
  );
}

/** In antd's theme (components/AntdScope.tsx): antd is not at the root. */
export default function ForgotPassword() {
  return (
    <AntdScope>
      <ForgotPasswordForm />
    </AntdScope>
  );
}
