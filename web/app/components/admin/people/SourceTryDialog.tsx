import { adminPeoplePaths } from "@contracts/admin-people-texts";
import { Alert, Input, List, Modal, Typography } from "antd";
import { useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import type { SourceRow } from "./source-types";

interface TryAnswer {
  ms: number;
  ok: boolean;
  hasMore: boolean;
  items: { sourceId: string; title: string; artist: string | null; url: string }[];
  error: { kind: string; message: string; status: number | null } | null;
}

/** 试搜: one search through the source's adapter (first page, no cache): its results or its error. */
export function SourceTryDialog({ source, onClose }: { source: SourceRow | null; onClose: () => void }) {
  const [answer, setAnswer] = useState<TryAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  async function run(keyword: string) {
    if (!source) return;
    setLoading(true);
    setFailure(null);
    setAnswer(null);
    try {
      const res = await adminCall<TryAnswer>("POST", adminPeoplePaths.sourceTry(source.code), { keyword });
      if (res.code === 1) setAnswer(res.data);
      else setFailure(res.msg);
    } catch {
      setFailure("试搜失败，请稍后重试");
    } finally {
      setLoading(false);
    }
  }

  return (
    <Modal
      open={source !== null}
      title={source ? `试搜：${source.name}` : ""}
      footer={null}
      width={720}
      onCancel={() => {
        setAnswer(null);
        setFailure(null);
        onClose();
      }}
      destroyOnHidden
    >
      <Input.Search placeholder="输入关键词，如 夜曲" enterButton="搜索" loading={loading} onSearch={(v) => void run(v)} aria-label="试搜关键词" />
      <div style={{ marginTop: 16 }} data-testid="source-try-result">
        {failure ? <Alert type="error" showIcon message={failure} /> : null}
        {answer && !answer.ok && answer.error ? (
          <Alert type="error" showIcon message={`来源出错 (${answer.error.kind}${answer.error.status ? ` ${answer.error.status}` : ""})，用时 ${answer.ms} ms`} description={answer.error.message} />
        ) : null}
        {answer?.ok ? (
          <List
            size="small"
            header={<Typography.Text type="secondary">第一页 {answer.items.length} 条{answer.hasMore ? "，还有下一页" : ""}，用时 {answer.ms} ms</Typography.Text>}
            dataSource={answer.items}
            renderItem={(item) => (
              <List.Item>
                <a href={item.url} target="_blank" rel="noreferrer">
                  {item.title}
                </a>
                <Typography.Text type="secondary">
                  {item.artist ?? ""} #{item.sourceId}
                </Typography.Text>
              </List.Item>
            )}
          />
        ) : null}
      </div>
    </Modal>
  );
}
