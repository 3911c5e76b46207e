import { PLUGIN_VARIABLE_MAX, pluginAdminPaths } from "@contracts/plugin-admin-texts";
import { Alert, App, Form, Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { errorText, unwrap, type PluginRow } from "./plugin-types";

/**
 * 用户变量: the form the plugin's `userVariables` ([{key, name, hint}]) describe; what the plugin
 * reads through `env.getUserVariables()`. An empty field is sent as "" (the plugin's default).
 */
export function PluginVariablesDialog({ plugin, onClose, onSaved }: { plugin: PluginRow | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Record<string, string>>();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  useEffect(() => {
    if (!plugin) return;
    setServerError(null);
    form.setFieldsValue(Object.fromEntries(plugin.userVariables.map((v) => [v.key, plugin.variables[v.key] ?? ""])));
  }, [plugin, form]);

  async function save() {
    if (!plugin) return;
    // Invalid fields show their messages under the fields; a rejection here would be an unhandled one.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const variables = Object.fromEntries(plugin.userVariables.map((v) => [v.key, (values[v.key] ?? "").trim()]));
    setSaving(true);
    setServerError(null);
    try {
      await unwrap(adminCall("PATCH", pluginAdminPaths.plugin(plugin.platform), { variables }));
      void message.success("保存成功");
      onSaved();
    } catch (err) {
      setServerError(errorText(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={plugin !== null}
      title={plugin ? `用户变量：${plugin.platform}` : ""}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      forceRender
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="plugin-variables-form">
        {plugin?.userVariables.map((v) => (
          <Form.Item key={v.key} name={v.key} label={`${v.name} (${v.key})`} extra={v.hint ?? undefined} rules={[{ max: PLUGIN_VARIABLE_MAX, message: `最多 ${PLUGIN_VARIABLE_MAX} 个字符` }]}>
            <Input placeholder={v.hint ?? "留空使用插件默认值"} aria-label={v.name} />
          </Form.Item>
        ))}
        {serverError ? <Alert type="error" showIcon message={serverError} /> : null}
      </Form>
    </Modal>
  );
}
