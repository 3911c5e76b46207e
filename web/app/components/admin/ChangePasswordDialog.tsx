import { changePasswordField, fieldMessages } from "@contracts/account-fields";
import { adminAccountMessages } from "@contracts/admin-account-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { Alert, App, Form, Input, Modal } from "antd";
import { useState } from "react";
import { adminCall } from "../../lib/admin-api";
import { sameAs, zodRule } from "../../lib/form-rules";

interface Values {
  oldPassword: string;
  password: string;
  confirm: string;
}

/**
 * The signed-in admin changes their own password (old password, new one twice, the site's
 * rules); the admin's other sessions end, this one stays. `forced`: the first-start account,
 * which can do nothing else until it has (issue 25): no cancel, and the reason said.
 */
export function ChangePasswordDialog({
  open,
  onClose,
  forced = false,
  onChanged,
}: {
  open: boolean;
  onClose: () => void;
  forced?: boolean;
  onChanged?: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();

  async function submit() {
    // A form with errors shows them under its fields; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const answer = await adminCall<null>("POST", "/api/pandaadmin/password", { ...values });
      if (answer.code === 1) {
        void message.success(answer.msg || adminAccountMessages.passwordChanged);
        form.resetFields();
        onChanged?.();
        onClose();
      } else void message.error(answer.msg || adminTableMessages.saveFailed);
    } catch {
      void message.error(adminTableMessages.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      title={forced ? adminAccountMessages.mustChangeTitle : "修改密码"}
      open={open}
      onOk={() => void submit()}
      onCancel={forced ? undefined : onClose}
      closable={!forced}
      mask={{ closable: !forced }}
      keyboard={!forced}
      footer={(_, { OkBtn, CancelBtn }) => (forced ? <OkBtn /> : <><CancelBtn /><OkBtn /></>)}
      confirmLoading={saving}
      okText="保存"
      cancelText="取消"
      destroyOnHidden
    >
      {forced ? <Alert type="warning" showIcon title={adminAccountMessages.mustChangeNote} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} layout="vertical" name="admin-password" requiredMark={false} preserve={false}>
        <Form.Item label="原密码" name="oldPassword" rules={[{ required: true, message: fieldMessages.oldPasswordRequired }]}>
          <Input.Password autoComplete="current-password" maxLength={128} />
        </Form.Item>
        <Form.Item label="新密码" name="password" rules={[zodRule(changePasswordField)]}>
          <Input.Password autoComplete="new-password" maxLength={30} />
        </Form.Item>
        <Form.Item label="确认新密码" name="confirm" dependencies={["password"]} rules={[sameAs("password", fieldMessages.confirmMismatch)]}>
          <Input.Password autoComplete="new-password" maxLength={30} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
