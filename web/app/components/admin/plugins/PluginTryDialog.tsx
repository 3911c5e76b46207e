import { PLUGIN_KEYWORD_MAX, pluginAdminPaths } from "@contracts/plugin-admin-texts";
import { Alert, Descriptions, Input, List, Modal, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { formatDuration } from "../../suite/format";
import { TrialAnswers } from "../recorded/TrialAnswers";
import { errorText, unwrap, type PluginRow, type PluginTry } from "./plugin-types";

/** The first hit's resolved address and the headers the plugin asks for. */
function MediaAnswer({ media }: { media: PluginTry["media"] }) {
  if (!media) return <Alert type="warning" showIcon message="未能解析第一条结果的播放地址" description="插件搜索正常，但 getMediaSource 没有返回地址：启用后这些结果可能无法播放。" />;
  const headers = Object.entries(media.headers);
  return (
    <Descriptions size="small" column={1} bordered title="第一条的播放地址" data-testid="plugin-try-media">
      <Descriptions.Item label="地址">
        <Typography.Text copyable style={{ wordBreak: "break-all", fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: 12 }}>
          {media.url}
        </Typography.Text>
      </Descriptions.Item>
      {headers.length > 0 ? (
        <Descriptions.Item label="请求头">
          <Space direction="vertical" size={0}>
            {headers.map(([k, v]) => (
              <Typography.Text key={k} style={{ fontSize: 12, wordBreak: "break-all" }}>
                {k}: {v}
              </Typography.Text>
            ))}
          </Space>
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** 试用: one search with the plugin's current version (enabled or not): its hits and the first hit's address, or its error. */
export function PluginTryDialog({ plugin, onClose }: { plugin: PluginRow | null; onClose: () => void }) {
  const [answer, setAnswer] = useState<PluginTry | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  async function run(raw: string) {
    const keyword = raw.trim();
    if (!plugin) return;
    if (!keyword) return setFailure("请输入搜索关键词");
    setLoading(true);
    setFailure(null);
    setAnswer(null);
    try {
      setAnswer(await unwrap(adminCall<PluginTry>("POST", pluginAdminPaths.try(plugin.platform), { keyword }), "试用失败，请稍后重试"));
    } catch (err) {
      setFailure(errorText(err, "试用失败，请稍后重试"));
    } finally {
      setLoading(false);
    }
  }

  const close = () => {
    setAnswer(null);
    setFailure(null);
    onClose();
  };

  return (
    <Modal open={plugin !== null} title={plugin ? `试用：${plugin.platform} ${plugin.version}` : ""} footer={null} width={760} onCancel={close} destroyOnHidden>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        用插件当前版本搜索一次并解析第一条的播放地址，不影响网站的搜索{plugin && !plugin.enabled ? "；插件尚未启用" : ""}。
      </Typography.Paragraph>
      <Input.Search placeholder="输入关键词，如 夜曲" enterButton="试搜" maxLength={PLUGIN_KEYWORD_MAX} loading={loading} onSearch={(v) => void run(v)} aria-label="试用关键词" />
      <div style={{ marginTop: 16, display: "grid", gap: 12 }} data-testid="plugin-try-result">
        {failure ? <Alert type="error" showIcon message={failure} /> : null}
        {answer && !answer.ok ? <Alert type="error" showIcon message={`插件出错，用时 ${answer.ms} ms`} description={answer.error} /> : null}
        {answer?.ok ? (
          <>
            <List
              size="small"
              bordered
              header={
                <Typography.Text type="secondary">
                  第一页 {answer.items.length} 条，用时 {answer.ms} ms
                </Typography.Text>
              }
              locale={{ emptyText: "没有搜到结果" }}
              dataSource={answer.items}
              style={{ maxHeight: 320, overflow: "auto" }}
              renderItem={(item) => (
                <List.Item data-testid="plugin-try-item" extra={item.duration ? <Tag>{formatDuration(item.duration)}</Tag> : null}>
                  <List.Item.Meta
                    title={<Typography.Text ellipsis={{ tooltip: item.title }}>{item.title}</Typography.Text>}
                    description={
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {item.artist || "未知艺人"} · #{item.id}
                      </Typography.Text>
                    }
                  />
                </List.Item>
              )}
            />
            {answer.items.length > 0 ? <MediaAnswer media={answer.media} /> : null}
          </>
        ) : null}
        {answer ? <TrialAnswers answers={answer.answers} /> : null}
      </div>
    </Modal>
  );
}
