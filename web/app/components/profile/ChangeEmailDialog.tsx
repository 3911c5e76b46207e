import { Button, Form, Input, Modal, Space, Steps } from "antd";
import { useState } from "react";
import { emailCodeField, emailField } from "@contracts/account-fields";
import { profileMessages, profilePaths } from "@contracts/account-profile-texts";
import { zodRule } from "../../lib/form-rules";
import { userCall } from "../../lib/user-api";
import { type SessionUser, useSession } from "../../session/store";
import { requestEmailCode } from "../account/email-code-api";
import { SendCodeButton, useCountdown } from "../account/SendCodeButton";
import { useSiteMessage } from "../feedback";

/**
 * Email change in two steps (spec sections 2 and 4): step 0 proves the current address with a
 * code sent there, step 1 sets the new address with its own code. Each send button has its own
 * countdown, kept while the dialog is closed (the server's minute runs on); closing goes back
 * to step 0.
 */
export function ChangeEmailDialog({ user, open, onClose }: { user: SessionUser; open: boolean; onClose: () => void }) {
  const message = useSiteMessage();
  const setUser = useSession((s) => s.setUser);
  const currentCountdown = useCountdown();
  const newCountdown = useCountdown();
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const [verifyForm] = Form.useForm<{ captcha: string }>();
  const [changeForm] = Form.useForm<{ email: string; captcha: string }>();

  const close = () => {
    setStep(0);
    verifyForm.resetFields();
    changeForm.resetFields();
    onClose();
  };

  const verifyCurrent = async ({ captcha }: { captcha: string }) => {
    setBusy(true);
    try {
      const res = await userCall("POST", profilePaths.checkCode, { event: "verifyemail", captcha: captcha.trim() });
      if (res.code !== 1) return verifyForm.setFields([{ name: "captcha", errors: [res.msg || profileMessages.codeWrong] }]);
      setStep(1);
    } catch {
      void message.error(profileMessages.emailChangeFailed);
    } finally {
      setBusy(false);
    }
  };

  const sendToNew = async () => {
    try {
      const { email } = await changeForm.validateFields(["email"]);
      return await requestEmailCode(message, "changeemail", email.trim());
    } catch {
      return null; // the field shows why
    }
  };

  const change = async ({ email, captcha }: { email: string; captcha: string }) => {
    setBusy(true);
    try {
      const res = await userCall<SessionUser>("POST", profilePaths.changeEmail, { email: email.trim(), captcha: captcha.trim() });
      if (res.code !== 1) return void message.error(res.msg || profileMessages.emailChangeFailed);
      setUser(res.data);
      void message.success(res.msg || profileMessages.emailChanged);
      close();
    } catch {
      void message.error(profileMessages.emailChangeFailed);
    } finally {
      setBusy(false);
    }
  };

  const footer = [
    <Button key="cancel" onClick={close}>
      取消
    </Button>,
    step === 0 ? (
      <Button key="next" type="primary" loading={busy} onClick={() => verifyForm.submit()}>
        下一步
      </Button>
    ) : (
      <Button key="ok" type="primary" loading={busy} onClick={() => changeForm.submit()}>
        确认修改
      </Button>
    ),
  ];

  return (
    <Modal title="修改邮箱" open={open} onCancel={close} footer={footer} width={480} forceRender>
      <Steps size="small" current={step} items={[{ title: "验证当前邮箱" }, { title: "绑定新邮箱" }]} style={{ margin: "16px 0 24px" }} />
      <div hidden={step !== 0}>
        <Form form={verifyForm} name="verify-current-email" layout="vertical" requiredMark={false} onFinish={verifyCurrent}>
          <Form.Item label="当前邮箱" htmlFor="current-email">
            <Input id="current-email" value={user.email} disabled />
          </Form.Item>
          <Form.Item label="验证码" required>
            <Space.Compact style={{ width: "100%" }}>
              <Form.Item name="captcha" noStyle rules={[zodRule(emailCodeField)]}>
                <Input placeholder="请输入当前邮箱收到的验证码" maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
              </Form.Item>
              <SendCodeButton countdown={currentCountdown} onSend={() => requestEmailCode(message, "verifyemail", user.email)} />
            </Space.Compact>
          </Form.Item>
        </Form>
      </div>
      <div hidden={step !== 1}>
        <Form form={changeForm} name="bind-new-email" layout="vertical" requiredMark={false} onFinish={change}>
          <Form.Item label="新邮箱" name="email" rules={[zodRule(emailField)]}>
            <Input placeholder="请输入新邮箱" autoComplete="email" inputMode="email" />
          </Form.Item>
          <Form.Item label="验证码" required>
            <Space.Compact style={{ width: "100%" }}>
              <Form.Item name="captcha" noStyle rules={[zodRule(emailCodeField)]}>
                <Input placeholder="请输入新邮箱收到的验证码" maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
              </Form.Item>
              <SendCodeButton countdown={newCountdown} onSend={sendToNew} />
            </Space.Compact>
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
