import { emailField, nicknameField } from "@contracts/account-fields";
import { adminPeoplePaths, adminUserMessages, COINS_MAX } from "@contracts/admin-people-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Form, Input, InputNumber, Modal } from "antd";
import { useEffect, useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { dateOf, endOfDay } from "../../../lib/admin-format";
import { zodRule } from "../../../lib/form-rules";

export interface EditableUser {
  id: number;
  username: string;
  nickname: string;
  email: string;
  coins: number;
  vip_until: number | null;
}

/** A member may have no nickname (the site shows the username): empty passes, else the account rule. */
const optionalNickname = {
  validator: async (_rule: unknown, value: string | undefined) => {
    if (!value?.trim()) return;
    const result = nicknameField.safeParse(value);
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? "输入有误");
  },
};

interface Values {
  nickname: string;
  email: string;
  coins: number;
  vipUntil: string;
}

/** 编辑用户: nickname, email, coins and VIP end date, under the account fields' rules. */
export function UserEditDialog({ user, onClose, onSaved }: { user: EditableUser | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();

  useEffect(() => {
    if (user) form.setFieldsValue({ nickname: user.nickname, email: user.email, coins: user.coins, vipUntil: dateOf(user.vip_until) });
  }, [user, form]);

  async function save() {
    if (!user) return;
    // Invalid fields show their messages under the fields; a rejection here would be an unhandled one.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const body: Record<string, unknown> = { email: values.email.trim(), coins: values.coins, vipUntil: endOfDay(values.vipUntil ?? "") };
      // A member without a nickname keeps none unless one is typed.
      if (values.nickname?.trim()) body.nickname = values.nickname.trim();
      const res = await adminCall(`PATCH`, adminPeoplePaths.user(user.id), body);
      if (res.code === 1) {
        void message.success(adminUserMessages.saved);
        onSaved();
      } else void message.error(res.msg || adminTableMessages.saveFailed);
    } catch {
      void message.error(adminTableMessages.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal open={user !== null} title={user ? `编辑用户：${user.username}` : ""} okText="保存" cancelText="取消" confirmLoading={saving} onOk={() => void save()} onCancel={onClose} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" data-testid="user-edit-form">
        <Form.Item label="昵称" name="nickname" rules={[optionalNickname]}>
          <Input maxLength={20} placeholder="2 到 20 个字符" />
        </Form.Item>
        <Form.Item label="邮箱" name="email" rules={[zodRule(emailField)]}>
          <Input maxLength={254} />
        </Form.Item>
        <Form.Item label="金币" name="coins" rules={[{ required: true, type: "integer", min: 0, max: COINS_MAX, message: adminUserMessages.coinsRange }]}>
          <InputNumber min={0} max={COINS_MAX} precision={0} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item label="VIP 到期日" name="vipUntil" extra="留空表示不是 VIP；到期日当天 23:59:59 结束">
          <Input type="date" max="2037-12-31" aria-label="VIP 到期日" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
