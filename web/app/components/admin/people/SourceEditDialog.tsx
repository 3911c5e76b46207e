import { adminPeoplePaths } from "@contracts/admin-people-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { SOURCE_TIMEOUT_MAX_MS, SOURCE_TIMEOUT_MIN_MS, sourceTimeoutMessage } from "@contracts/source-admin-texts";
import { Alert, App, Form, Input, InputNumber, Modal, Switch } from "antd";
import { useEffect, useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import type { SourceRow } from "./source-types";

interface Values {
  code: string;
  name: string;
  logo: string;
  enabled: boolean;
  sort: number;
  collectIntervalMinutes: number;
  timeoutMs: number | null;
  config: string;
}

const CODE = /^[a-z0-9_-]{2,32}$/u;

/**
 * 来源设置: the switches of any source (PATCH), and a generic source's JSON configuration (PUT,
 * checked by the server, which names the field it refuses). `source` null with `open`: a new
 * generic source.
 */
export function SourceEditDialog({ open, source, onClose, onSaved }: { open: boolean; source: SourceRow | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const generic = source === null || source.adapter === "generic";
  const hasAdapter = source === null || source.adapter !== "none";
  const defaultTimeout = source?.defaultTimeoutMs ?? 3000;

  useEffect(() => {
    if (!open) return;
    setServerError(null);
    const config = source?.config ?? null;
    form.setFieldsValue({
      code: source?.code ?? "",
      name: source?.name ?? "",
      logo: source?.logo ?? "",
      enabled: source?.enabled ?? true,
      sort: source?.sort ?? 0,
      collectIntervalMinutes: source?.collectIntervalMinutes ?? 0,
      // The admin's own value (PATCH timeoutMs); empty: the source's default (a generic config's `timeoutMs`, else 3 s).
      timeoutMs: source && !source.timeoutDefault ? source.timeoutMs : null,
      config: config ? JSON.stringify(config, null, 2) : "",
    });
  }, [open, source, form]);

  async function save() {
    // Invalid fields show their messages under the fields; a rejection here would be an unhandled one.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    setServerError(null);
    try {
      const code = source?.code ?? v.code.trim();
      if (generic) {
        const config = JSON.parse(v.config) as Record<string, unknown>;
        const put = await adminCall("PUT", adminPeoplePaths.source(code), { ...config, code });
        if (put.code !== 1) return setServerError(put.msg || adminTableMessages.saveFailed);
      }
      const patch: Record<string, unknown> = { enabled: v.enabled, sort: v.sort, collectIntervalMinutes: v.collectIntervalMinutes, logo: v.logo.trim() || null };
      if (hasAdapter) patch.timeoutMs = v.timeoutMs ?? null;
      if (v.name.trim()) patch.name = v.name.trim();
      const res = await adminCall("PATCH", adminPeoplePaths.source(code), patch);
      if (res.code !== 1) return setServerError(res.msg || adminTableMessages.saveFailed);
      void message.success("保存成功");
      onSaved();
    } catch {
      setServerError(adminTableMessages.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal open={open} title={source ? `来源设置：${source.name}` : "新增通用来源"} width={760} okText="保存" cancelText="取消" confirmLoading={saving} onOk={() => void save()} onCancel={onClose} forceRender destroyOnHidden>
      <Form form={form} layout="vertical" data-testid="source-edit-form">
        {source ? null : (
          <Form.Item label="来源代码" name="code" rules={[{ pattern: CODE, required: true, message: "来源代码为 2 到 32 位小写字母、数字、_ 或 -" }]}>
            <Input placeholder="如 mysite" />
          </Form.Item>
        )}
        <Form.Item label="名称" name="name" rules={[{ max: 40, message: "名称最多 40 个字" }]}>
          <Input placeholder={generic && !source ? "留空则用配置中的 name" : undefined} />
        </Form.Item>
        <Form.Item label="图标地址" name="logo" rules={[{ pattern: /^(\/|https?:\/\/)/u, message: "图标地址须以 / 或 http(s):// 开头" }]}>
          <Input placeholder="/static/sites/xxx.png" />
        </Form.Item>
        <div style={{ display: "flex", gap: 16, flexWrap: "wrap" }}>
          <Form.Item label="启用" name="enabled" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="排序" name="sort">
            <InputNumber min={-100000} max={100000} precision={0} />
          </Form.Item>
          <Form.Item label="采集间隔 (分钟，0 为不定时采集)" name="collectIntervalMinutes">
            <InputNumber min={0} max={7 * 24 * 60} precision={0} />
          </Form.Item>
          {hasAdapter ? (
            <Form.Item
              label={`超时 (毫秒，留空为默认 ${defaultTimeout})`}
              name="timeoutMs"
              rules={[{ type: "number", min: SOURCE_TIMEOUT_MIN_MS, max: SOURCE_TIMEOUT_MAX_MS, message: sourceTimeoutMessage }]}
            >
              <InputNumber min={SOURCE_TIMEOUT_MIN_MS} max={SOURCE_TIMEOUT_MAX_MS} precision={0} placeholder={String(defaultTimeout)} aria-label="超时" style={{ width: 160 }} />
            </Form.Item>
          ) : null}
        </div>
        {generic ? (
          <Form.Item
            label="通用来源配置 (JSON：URL 模板、CSS 选择器或 JSON 路径、编码、请求头、主机)"
            name="config"
            rules={[
              {
                validator: async (_r, value: string) => {
                  try {
                    const parsed: unknown = JSON.parse(value || "");
                    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error();
                  } catch {
                    throw new Error("配置须为 JSON 对象");
                  }
                },
              },
            ]}
          >
            <Input.TextArea rows={12} spellCheck={false} style={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: 12 }} aria-label="通用来源配置" />
          </Form.Item>
        ) : (
          <Alert type="info" showIcon message="内置来源的适配器由代码提供：这里只能修改启用、名称、图标、排序、采集间隔和超时。" />
        )}
        {serverError ? <Alert type="error" showIcon message={serverError} style={{ marginTop: 12, whiteSpace: "pre-wrap" }} data-testid="source-error" /> : null}
      </Form>
    </Modal>
  );
}
