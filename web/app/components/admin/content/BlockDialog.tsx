import { BLOCK_NAME_MAX, BLOCK_POSITIONS, adminContentPaths as paths, blockTexts as t } from "@contracts/admin-content-texts";
import { App, Form, Input, InputNumber, Modal, Select, Switch } from "antd";
import { useEffect, useState } from "react";
import { adminSave } from "./admin-save";

export interface BlockRecord {
  id: number;
  name: string;
  position: string;
  position_text: string;
  status: boolean;
  status_text: string;
  sort: number;
  items: number;
}

type Values = Pick<BlockRecord, "name" | "position" | "status" | "sort">;

/** Add or edit a block: name, position (carousel / partner logos), enabled, order. */
export function BlockDialog({ record, open, onClose, onSaved }: { record: BlockRecord | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) form.setFieldsValue(record ? { name: record.name, position: record.position, status: record.status, sort: record.sort } : { name: "", position: "indexfocus", status: true, sort: 0 });
  }, [open, record, form]);

  const submit = async () => {
    // Invalid fields show their messages under the fields; a rejection here would be an unhandled one.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const saved = record ? await adminSave(message, "PUT", `${paths.block}/${record.id}`, values) : await adminSave(message, "POST", paths.block, values);
    setSaving(false);
    if (saved) onSaved();
  };

  return (
    <Modal title={record ? "编辑区块" : "添加区块"} open={open} onCancel={onClose} onOk={() => void submit().catch(() => undefined)} confirmLoading={saving} okText="保存" destroyOnHidden>
      <Form form={form} labelCol={{ span: 5 }} wrapperCol={{ span: 18 }} preserve={false} data-testid="block-form">
        <Form.Item name="name" label="区块名称" rules={[{ required: true, whitespace: true, message: t.nameRequired }, { max: BLOCK_NAME_MAX, message: t.nameTooLong }]}>
          <Input placeholder={t.nameRequired} maxLength={BLOCK_NAME_MAX} />
        </Form.Item>
        <Form.Item name="position" label="位置" rules={[{ required: true, message: t.positionBad }]}>
          <Select options={BLOCK_POSITIONS.map((p) => ({ value: p.value, label: `${p.label}（${p.value}）` }))} />
        </Form.Item>
        <Form.Item name="sort" label="排序" rules={[{ required: true, type: "integer", min: 0, message: t.sortBad }]}>
          {/* No min: antd would turn -1 into 0 on blur and save it; the rule (and the server, 400) refuse it instead (issue 25). */}
          <InputNumber precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="status" label="启用" valuePropName="checked">
          <Switch checkedChildren="启用" unCheckedChildren="禁用" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
