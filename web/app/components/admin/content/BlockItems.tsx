import { PlusOutlined, UploadOutlined } from "@ant-design/icons";
import {
  BLOCK_IMAGE_MAX_BYTES,
  BLOCK_ITEM_NAME_MAX,
  BLOCK_URL_MAX,
  BLOCK_URL_PATTERN,
  adminContentPaths as paths,
  blockTexts as t,
} from "@contracts/admin-content-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button, Drawer, Form, Image, Input, InputNumber, Modal, Space, Table, Upload } from "antd";
import { useCallback, useEffect, useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { adminSave } from "./admin-save";
import type { BlockRecord } from "./BlockDialog";
import { DeleteConfirm } from "../DeleteConfirm";

interface ItemRecord {
  id: number;
  block_id: number;
  name: string;
  url: string;
  image: string;
  sort: number;
}
type Values = Pick<ItemRecord, "name" | "url" | "image" | "sort">;

/** A block's items (picture, link, name, order) in a drawer, with their add / edit dialog. */
export function BlockItemsDrawer({ block, onClose, onChanged }: { block: BlockRecord | null; onClose: () => void; onChanged: () => void }) {
  const { message } = App.useApp();
  const [items, setItems] = useState<ItemRecord[]>([]);
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<{ record: ItemRecord | null } | null>(null);

  const load = useCallback(async () => {
    if (!block) return;
    setLoading(true);
    try {
      const answer = await adminCall<ItemRecord[]>("GET", `${paths.block}/${block.id}/items`);
      if (answer.code === 1) setItems(answer.data);
      else void message.error(answer.msg || adminTableMessages.loadFailed);
    } catch {
      void message.error(adminTableMessages.loadFailed);
    } finally {
      setLoading(false);
    }
  }, [block, message]);

  useEffect(() => {
    setItems([]);
    void load();
  }, [load]);

  const changed = () => {
    void load();
    onChanged();
  };
  const remove = async (item: ItemRecord) => {
    if (await adminSave(message, "DELETE", `${paths.blockItem}/${item.id}`, undefined, adminTableMessages.deleteFailed)) changed();
  };

  return (
    <Drawer title={block ? `区块内容：${block.name}（${block.position_text}）` : ""} open={block !== null} onClose={onClose} size="large" destroyOnHidden>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })}>
          添加内容
        </Button>
      </Space>
      <Table<ItemRecord>
        rowKey="id"
        loading={loading}
        dataSource={items}
        pagination={false}
        data-testid="block-items"
        columns={[
          { title: "图片", dataIndex: "image", width: 140, render: (src: string, r) => <Image src={src} alt={r.name} width={120} height={40} style={{ objectFit: "cover" }} /> },
          { title: "名称", dataIndex: "name" },
          { title: "链接", dataIndex: "url", ellipsis: true },
          { title: "排序", dataIndex: "sort", width: 70 },
          {
            title: "操作",
            width: 130,
            render: (_, record) => (
              <Space>
                <Button type="link" size="small" onClick={() => setEditing({ record })}>
                  编辑
                </Button>
                <DeleteConfirm title={`确定删除「${record.name}」吗？`} onConfirm={() => remove(record)} link />
              </Space>
            ),
          },
        ]}
      />
      {block ? (
        <BlockItemDialog
          block={block}
          open={editing !== null}
          record={editing?.record ?? null}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            changed();
          }}
        />
      ) : null}
    </Drawer>
  );
}

function BlockItemDialog({ block, record, open, onClose, onSaved }: { block: BlockRecord; record: ItemRecord | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const image = Form.useWatch("image", form);

  useEffect(() => {
    if (open) form.setFieldsValue(record ? { name: record.name, url: record.url, image: record.image, sort: record.sort } : { name: "", url: "", image: "", sort: 0 });
  }, [open, record, form]);

  /** The picture goes up at once (decoded and re-encoded by the server); the form keeps its address. */
  const upload = async (file: File) => {
    if (file.size > BLOCK_IMAGE_MAX_BYTES) {
      void message.error(t.imageTooLarge);
      return;
    }
    const body = new FormData();
    body.append("image", file);
    setUploading(true);
    const saved = await adminSave<{ url: string }>(message, "POST", `${paths.blockImage}?position=${encodeURIComponent(block.position)}`, body, t.imageFailed);
    setUploading(false);
    if (saved) form.setFieldsValue({ image: saved.data.url });
  };

  const submit = async () => {
    // Invalid fields show their messages under the fields; a rejection here would be an unhandled one.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const saved = record
      ? await adminSave(message, "PUT", `${paths.blockItem}/${record.id}`, values)
      : await adminSave(message, "POST", `${paths.block}/${block.id}/items`, values);
    setSaving(false);
    if (saved) onSaved();
  };

  return (
    <Modal title={record ? "编辑内容" : "添加内容"} open={open} onCancel={onClose} onOk={() => void submit().catch(() => undefined)} confirmLoading={saving} okText="保存" destroyOnHidden>
      <Form form={form} labelCol={{ span: 5 }} wrapperCol={{ span: 18 }} preserve={false} data-testid="block-item-form">
        <Form.Item label="图片" required>
          <Space orientation="vertical">
            <Upload
              accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
              showUploadList={false}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading}>
                上传图片
              </Button>
            </Upload>
            {image ? <img src={image} alt="预览" style={{ maxWidth: 320, maxHeight: 120, borderRadius: 4 }} data-testid="block-image-preview" /> : null}
          </Space>
        </Form.Item>
        <Form.Item name="image" hidden rules={[{ required: true, message: t.imageRequired }]}>
          <Input />
        </Form.Item>
        <Form.Item name="name" label="名称" rules={[{ required: true, whitespace: true, message: t.itemNameRequired }, { max: BLOCK_ITEM_NAME_MAX, message: t.itemNameTooLong }]}>
          <Input placeholder={t.itemNameRequired} maxLength={BLOCK_ITEM_NAME_MAX} />
        </Form.Item>
        <Form.Item name="url" label="链接地址" rules={[{ required: true, whitespace: true, message: t.itemUrlRequired }, { pattern: BLOCK_URL_PATTERN, message: t.itemUrlBad }]}>
          <Input placeholder="https://… 或 /sort/…" maxLength={BLOCK_URL_MAX} />
        </Form.Item>
        <Form.Item name="sort" label="排序" rules={[{ required: true, type: "integer", min: 0, message: t.sortBad }]}>
          {/* No min: antd would turn -1 into 0 on blur and save it; the rule (and the server, 400) refuse it instead (issue 25). */}
          <InputNumber precision={0} style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
