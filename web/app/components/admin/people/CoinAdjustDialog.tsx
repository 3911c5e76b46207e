import { coinAmountField, coinReasonField } from "@contracts/economy-fields";
import { ADMIN_COINS_MAX_STEP, ADMIN_REASON_MAX, economyPaths } from "@contracts/economy-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Form, Input, InputNumber, Modal, Radio } from "antd";
import { useEffect, useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { zodRule } from "../../../lib/form-rules";

export interface CoinTarget {
  id: number;
  username: string;
  coins: number;
}

interface Values {
  direction: "grant" | "deduct";
  amount: number;
  reason: string;
}

/** 调整金币: an admin grants or deducts coins with a reason (audited; the member sees it in 收支明细). */
export function CoinAdjustDialog({ user, onClose, onSaved }: { user: CoinTarget | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();

  useEffect(() => {
    if (user) form.setFieldsValue({ direction: "grant", amount: undefined, reason: "" });
  }, [user, form]);

  async function save() {
    if (!user) return;
    // Invalid fields show their messages under them; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const amount = values.direction === "grant" ? values.amount : -values.amount;
      const res = await adminCall<{ coins: number }>("POST", economyPaths.adminCoins(user.id), { amount, reason: values.reason.trim() });
      if (res.code === 1) {
        void message.success(`${res.msg}，当前余额 ${res.data.coins} 币`);
        onSaved();
      } else void message.error(res.msg || adminTableMessages.saveFailed);
    } catch {
      void message.error(adminTableMessages.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={user !== null}
      title={user ? `调整金币：${user.username}（当前 ${user.coins} 币）` : ""}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="coin-adjust-form">
        <Form.Item name="direction" label="类型">
          <Radio.Group
            options={[
              { value: "grant", label: "发放" },
              { value: "deduct", label: "扣除" },
            ]}
          />
        </Form.Item>
        <Form.Item label="数量（币）" name="amount" rules={[zodRule(coinAmountField)]}>
          <InputNumber min={1} max={ADMIN_COINS_MAX_STEP} precision={0} style={{ width: "100%" }} aria-label="数量" />
        </Form.Item>
        <Form.Item label="原因" name="reason" rules={[zodRule(coinReasonField)]} extra="会显示在用户的收支明细中">
          <Input maxLength={ADMIN_REASON_MAX} aria-label="原因" placeholder="例如：活动奖励" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
