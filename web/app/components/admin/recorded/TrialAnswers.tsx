import { RECORDED_CALL_TEXT, recordedPaths } from "@contracts/recorded-texts";
import { App, Button, List, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { errorText, unwrap } from "../plugins/plugin-types";
import { mono, sizeText, type RecordedAnswer, type TrialAnswer } from "./recorded-types";

/** The answers a try's requests got, each savable as a sample of the plugin's source (保存为样本). */
export function TrialAnswers({ answers }: { answers: TrialAnswer[] }) {
  const { message } = App.useApp();
  const [saved, setSaved] = useState<Record<number, boolean>>({});
  const [busy, setBusy] = useState<number | null>(null);

  async function save(id: number) {
    setBusy(id);
    try {
      await unwrap(adminCall<RecordedAnswer>("POST", recordedPaths.saveTrial(id)));
      setSaved((s) => ({ ...s, [id]: true }));
      void message.success("已保存为样本");
    } catch (err) {
      void message.error(errorText(err));
    } finally {
      setBusy(null);
    }
  }

  if (!answers.length) return null;
  return (
    <List
      size="small"
      bordered
      data-testid="plugin-try-answers"
      header={<Typography.Text type="secondary">本次试用的请求与响应（{answers.length} 个）：保存为样本后，检查更新时会用它回放新版本</Typography.Text>}
      dataSource={answers}
      renderItem={(a) => (
        <List.Item
          data-testid="plugin-try-answer"
          extra={
            a.id === null ? (
              <Tag color="red">{a.error ?? "无法保存"}</Tag>
            ) : saved[a.id] ? (
              <Tag color="green">已保存</Tag>
            ) : (
              <Button size="small" loading={busy === a.id} onClick={() => void save(a.id!)}>
                保存为样本
              </Button>
            )
          }
        >
          <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
            <Space size={4}>
              <Tag>{RECORDED_CALL_TEXT[a.call] ?? a.call}</Tag>
              <Tag color={a.status > 0 && a.status < 400 ? "default" : "red"}>{a.status > 0 ? `HTTP ${a.status}` : "无响应"}</Tag>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {sizeText(a.bytes)}
              </Typography.Text>
            </Space>
            <Typography.Text style={{ ...mono, wordBreak: "break-all" }}>{a.url}</Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}
