import { InboxOutlined } from "@ant-design/icons";
import { PLUGIN_MAX_BYTES, PLUGIN_URL_MAX, PLUGIN_URL_PATTERN, pluginAdminMessages, pluginAdminPaths } from "@contracts/plugin-admin-texts";
import { Alert, App, Button, Card, Form, Input, List, Tabs, Typography, Upload } from "antd";
import { useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { errorText, stagedText, unwrap, type PluginInstalled } from "./plugin-types";

type Mode = "file" | "url" | "subscription";

const URL_RULES = [
  { required: true, message: "请输入地址" },
  { max: PLUGIN_URL_MAX, message: pluginAdminMessages.badUrl },
  { pattern: PLUGIN_URL_PATTERN, message: pluginAdminMessages.badUrl },
];

/** The last install's outcome: what was installed and (a subscription) what failed and why. */
function InstallOutcome({ outcome, versionOf }: { outcome: PluginInstalled; versionOf: (platform: string) => string | undefined }) {
  // A staged version once activated (or replaced meanwhile) is no longer waiting.
  const waiting = outcome.staged.filter((s) => versionOf(s.platform) !== s.version);
  return (
    <div style={{ marginTop: 12, display: "grid", gap: 8 }} data-testid="plugin-install-outcome">
      {outcome.installed.length > 0 ? (
        <Alert
          type="success"
          showIcon
          message={`已安装 ${outcome.installed.map((p) => `${p.platform} ${p.version}`).join("、")}`}
          description={outcome.installed.some((p) => !p.enabled) ? "新安装的插件默认停用：先试用，确认能搜到、能播放后再启用。" : undefined}
        />
      ) : null}
      {waiting.map((s) => (
        <Alert
          key={s.versionId}
          type="info"
          showIcon
          message={`${s.platform}：${stagedText(s)}`}
          description={`当前仍在使用 v${s.current}。新版本已保存但尚未启用：回放该来源的样本、对比新旧版本提取的结果后，点「启用新版本」。`}
          data-testid="plugin-install-staged"
        />
      ))}
      {outcome.failed.length > 0 ? (
        <Alert
          type="error"
          showIcon
          message={`${outcome.failed.length} 个插件安装失败`}
          description={
            <List
              size="small"
              dataSource={outcome.failed}
              renderItem={(f) => (
                <List.Item style={{ paddingInline: 0, justifyContent: "flex-start", gap: 12, alignItems: "baseline" }}>
                  <Typography.Text strong style={{ flex: "none" }}>
                    {f.name}
                  </Typography.Text>
                  <Typography.Text type="danger" style={{ wordBreak: "break-all" }}>
                    {f.error}
                  </Typography.Text>
                </List.Item>
              )}
            />
          }
        />
      ) : null}
    </div>
  );
}

/**
 * 安装插件: a .js file, a plugin's address, or a MusicFree subscription (`{"plugins":[…]}`). A newer
 * version of an installed platform is only stored (`staged`): the page replays it before it is used.
 */
export function PluginInstallCard({ onInstalled, versionOf }: { onInstalled: (answer: PluginInstalled) => void; versionOf: (platform: string) => string | undefined }) {
  const { message } = App.useApp();
  const [mode, setMode] = useState<Mode>("file");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<PluginInstalled | null>(null);
  const [urlForm] = Form.useForm<{ url: string }>();
  const [subForm] = Form.useForm<{ subscription: string }>();

  async function install(body: FormData | { url: string } | { subscription: string }) {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await unwrap(adminCall<PluginInstalled>("POST", pluginAdminPaths.install, body), "安装失败，请稍后重试");
      setOutcome(answer);
      if (answer.installed.length > 0) void message.success(`已安装 ${answer.installed.length} 个插件`);
      for (const s of answer.staged) void message.info(`${s.platform}：${stagedText(s)}`);
      if (answer.failed.length > 0) void message.error(`${answer.failed.length} 个插件安装失败`);
      onInstalled(answer);
      // The address stays while nothing came of it (to correct it and try again).
      return answer.installed.length + answer.staged.length > 0;
    } catch (err) {
      void message.error(errorText(err, "安装失败，请稍后重试"));
      return false;
    } finally {
      setBusy(false);
    }
  }

  function installFile(file: File) {
    if (file.size > PLUGIN_MAX_BYTES) {
      void message.error(pluginAdminMessages.tooLarge);
      return;
    }
    const body = new FormData();
    body.append("file", file, file.name);
    void install(body);
  }

  const items = [
    {
      key: "file",
      label: "上传文件",
      children: (
        <Upload.Dragger
          accept=".js,.cjs,application/javascript,text/javascript"
          multiple={false}
          showUploadList={false}
          disabled={busy}
          beforeUpload={(file) => {
            installFile(file);
            return Upload.LIST_IGNORE;
          }}
          data-testid="plugin-upload"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖入插件文件 (.js) 安装</p>
          <p className="ant-upload-hint">MusicFree 插件协议，最多 2 MB；已安装的平台上传更高版本时，先回放样本对比，再启用</p>
        </Upload.Dragger>
      ),
    },
    {
      key: "url",
      label: "插件地址",
      children: (
        <Form form={urlForm} layout="inline" onFinish={async (v) => (await install({ url: v.url.trim() })) && urlForm.resetFields()} style={{ rowGap: 8 }}>
          <Form.Item name="url" rules={URL_RULES} style={{ flex: "1 1 360px" }}>
            <Input placeholder="https://example.com/plugins/mysite.js" aria-label="插件地址" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy}>
            安装
          </Button>
        </Form>
      ),
    },
    {
      key: "subscription",
      label: "订阅地址",
      children: (
        <Form form={subForm} layout="inline" onFinish={async (v) => (await install({ subscription: v.subscription.trim() })) && subForm.resetFields()} style={{ rowGap: 8 }}>
          <Form.Item name="subscription" rules={URL_RULES} style={{ flex: "1 1 360px" }} extra='MusicFree 订阅：{"plugins":[{"name","url","version"}]}，逐个安装，失败的会列出原因'>
            <Input placeholder="https://example.com/plugins.json" aria-label="订阅地址" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy}>
            安装全部
          </Button>
        </Form>
      ),
    },
  ];

  return (
    <Card size="small" title="安装插件" style={{ marginBottom: 16 }} data-testid="plugin-install">
      <Tabs activeKey={mode} onChange={(k) => setMode(k as Mode)} items={items} size="small" />
      {outcome ? <InstallOutcome outcome={outcome} versionOf={versionOf} /> : null}
    </Card>
  );
}
