import type { SourceCanaryAnswer } from "@contracts/source-health";
import { Space, Tag, Tooltip, Typography } from "antd";
import { CANARY_STEP_TEXT, CHECK_STATE_TEXT, canarySummary } from "./canary-text";

/** Every check of a run, one a line (the tag's tooltip). */
function CheckList({ canary }: { canary: SourceCanaryAnswer }) {
  return (
    <div>
      {canary.checks.map((c) => (
        <div key={c.name}>
          {CANARY_STEP_TEXT[c.name] ?? c.name}：{CHECK_STATE_TEXT[c.state]}
          {c.detail ? `（${c.detail}）` : ""}
        </div>
      ))}
    </div>
  );
}

/** A source's last canary (ADR 0049): state since when, last ok, and the failing step; compact for the dashboard. */
export function SourceCanary({ code, canary, compact = false }: { code: string; canary: SourceCanaryAnswer | null | undefined; compact?: boolean }) {
  const s = canarySummary(canary);
  if (!s || !canary) return <Typography.Text type="secondary">尚未巡检</Typography.Text>;
  return (
    <Space direction="vertical" size={0} data-source-canary={code} data-canary-state={canary.state}>
      <Space size={6} wrap>
        <Tooltip title={<CheckList canary={canary} />}>
          <Tag color={s.color}>{s.text}</Tag>
        </Tooltip>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          自 {s.since}
        </Typography.Text>
      </Space>
      {s.failing ? (
        <Tooltip title={`${s.hint}。${s.failing.detail}`}>
          <Typography.Text type={canary.state === "drift" ? "warning" : "danger"} ellipsis style={{ maxWidth: compact ? 220 : 260 }}>
            失败步骤：{s.failing.step}
            {compact ? "" : `（${s.failing.detail}）`}
          </Typography.Text>
        </Tooltip>
      ) : null}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        上次正常 {s.lastOk}
      </Typography.Text>
      {compact ? null : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          检测于 {s.at}
        </Typography.Text>
      )}
    </Space>
  );
}
