import {
  CATEGORY_DIYNAME_PATTERN,
  CATEGORY_MODELS,
  CATEGORY_NAME_MAX,
  adminContentPaths as paths,
  categoryTexts as t,
  SEO_DESCRIPTION_MAX,
  SEO_KEYWORDS_MAX,
  SEO_TITLE_MAX,
} from "@contracts/admin-content-texts";
import { App, Form, Input, InputNumber, Modal, Select, Switch } from "antd";
import { useEffect, useMemo, useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { adminSave } from "./admin-save";

export interface CategoryRecord {
  id: number;
  name: string;
  diyname: string;
  sort: number;
  count: number;
  parent_id: number | null;
  parent_name: string | null;
  enabled: boolean;
  model_id: number;
  seo_title: string;
  seo_keywords: string;
  seo_description: string;
  url: string;
}

type Values = Omit<CategoryRecord, "id" | "count" | "parent_name" | "url">;
interface Option {
  id: number;
  name: string;
  parent_id: number | null;
}

const EMPTY: Values = { name: "", diyname: "", sort: 0, parent_id: null, enabled: true, model_id: 1, seo_title: "", seo_keywords: "", seo_description: "" };

/** The category and everything under it: none of them can be its parent (the server checks too). */
function descendantsOf(id: number, options: Option[]): Set<number> {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const o of options) {
      if (o.parent_id !== null && out.has(o.parent_id) && !out.has(o.id)) {
        out.add(o.id);
        grew = true;
      }
    }
  }
  return out;
}

/** Add or edit one category (请输入分类名称; slug, parent, page style, SEO texts). */
export function CategoryDialog({ record, open, onClose, onSaved }: { record: CategoryRecord | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [options, setOptions] = useState<Option[]>([]);

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(record ? { ...EMPTY, ...record } : EMPTY);
    void adminCall<Option[]>("GET", paths.categoryOptions)
      .then((answer) => setOptions(answer.code === 1 ? answer.data : []))
      .catch(() => setOptions([]));
  }, [open, record, form]);

  const parentOptions = useMemo(() => {
    const blocked = record ? descendantsOf(record.id, options) : new Set<number>();
    return [{ value: 0, label: "无（顶级分类）" }, ...options.filter((o) => !blocked.has(o.id)).map((o) => ({ value: o.id, label: o.name }))];
  }, [options, record]);

  const submit = async () => {
    // Invalid fields show their messages under the fields; a rejection here would be an unhandled one.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const body = { ...values, parent_id: values.parent_id ? values.parent_id : null };
    const saved = record
      ? await adminSave(message, "PUT", `${paths.category}/${record.id}`, body)
      : await adminSave(message, "POST", paths.category, body);
    setSaving(false);
    if (saved) onSaved();
  };

  return (
    <Modal
      title={record ? "编辑分类" : "添加分类"}
      open={open}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      confirmLoading={saving}
      okText="保存"
      destroyOnHidden
      width={640}
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 18 }} preserve={false} data-testid="category-form">
        <Form.Item name="name" label="分类名称" rules={[{ required: true, whitespace: true, message: t.nameRequired }, { max: CATEGORY_NAME_MAX, message: t.nameTooLong }]}>
          <Input placeholder={t.nameRequired} maxLength={CATEGORY_NAME_MAX} />
        </Form.Item>
        <Form.Item
          name="diyname"
          label="分类别名"
          extra="用于分类页地址 /sort/别名"
          rules={[{ required: true, whitespace: true, message: t.diynameRequired }, { pattern: CATEGORY_DIYNAME_PATTERN, message: t.diynameBad }]}
        >
          <Input placeholder="例如 chuanshao" maxLength={50} />
        </Form.Item>
        <Form.Item name="parent_id" label="上级分类" getValueProps={(v) => ({ value: v ?? 0 })}>
          <Select options={parentOptions} showSearch={{ optionFilterProp: "label" }} />
        </Form.Item>
        <Form.Item name="sort" label="排序" rules={[{ required: true, type: "integer", min: 0, message: t.sortBad }]}>
          {/* No min: antd would turn -1 into 0 on blur and save it; the rule (and the server, 400) refuse it instead (issue 25). */}
          <InputNumber precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="model_id" label="页面样式">
          <Select options={CATEGORY_MODELS.map((m) => ({ value: m.value, label: m.label }))} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch checkedChildren="启用" unCheckedChildren="禁用" />
        </Form.Item>
        <Form.Item name="seo_title" label="SEO 标题" extra="页面标题会自动加上“ - 站点标题”，这里只填分类自己的部分" rules={[{ max: SEO_TITLE_MAX, message: t.seoTooLong }]}>
          <Input maxLength={SEO_TITLE_MAX} placeholder="留空则用分类名称" />
        </Form.Item>
        <Form.Item name="seo_keywords" label="SEO 关键词" rules={[{ max: SEO_KEYWORDS_MAX, message: t.seoTooLong }]}>
          <Input maxLength={SEO_KEYWORDS_MAX} />
        </Form.Item>
        <Form.Item name="seo_description" label="SEO 描述" rules={[{ max: SEO_DESCRIPTION_MAX, message: t.seoTooLong }]}>
          <Input.TextArea rows={3} maxLength={SEO_DESCRIPTION_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
