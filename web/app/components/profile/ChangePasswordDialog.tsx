import { Form, Input, Modal } from "antd";
import { useState } from "react";
import { changePasswordField, fieldMessages } from "@contracts/account-fields";
import { profileMessages, profilePaths } from "@contracts/account-profile-texts";
import { sameAs, zodRule } from "../../lib/form-rules";
import { userCall } from "../../lib/user-api";
import { useSiteMessage } from "../feedback";

interface PasswordValues {
  oldpassword: string;
  newpassword: string;
  confirm: string;
}

/** Old, new (6-30) and confirmation; the member stays signed in here (other devices are signed out). */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const message = useSiteMessage();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };
  const submit = async ({ oldpassword, newpassword }: PasswordValues) => {
    setSaving(true);
    try {
      const res = await userCall("POST", profilePaths.changePassword, { oldpassword, newpassword });
      if (res.code !== 1) {
        if (res.msg === profileMessages.oldPasswordWrong) form.setFields([{ name: "oldpassword", errors: [res.msg] }]);
        return void message.error(res.msg || profileMessages.passwordChangeFailed);
      }
      void message.success(res.msg || profileMessages.passwordChanged);
      close();
    } catch {
      void message.error(profileMessages.passwordChangeFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="修改密码"
      open={open}
      onCancel={close}
      onOk={() => form.submit()}
      okText="确认修改"
      cancelText="取消"
      confirmLoading={saving}
      width={440}
      forceRender
    >
      <Form form={form} name="change-password" layout="vertical" requiredMark={false} onFinish={submit} style={{ marginTop: 16 }}>
        <Form.Item label="原密码" name="oldpassword" rules={[{ required: true, message: fieldMessages.oldPasswordRequired }]}>
          <Input.Password placeholder="请输入原密码" autoComplete="current-password" />
        </Form.Item>
        <Form.Item label="新密码" name="newpassword" rules={[zodRule(changePasswordField)]}>
          <Input.Password placeholder="6-30个字符" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirm"
          dependencies={["newpassword"]}
          rules={[{ required: true, message: fieldMessages.registerConfirmRequired }, sameAs("newpassword", fieldMessages.confirmMismatch)]}
        >
          <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
