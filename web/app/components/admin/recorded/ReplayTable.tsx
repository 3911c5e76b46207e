import { RECORDED_CALL_TEXT } from "@contracts/recorded-texts";
import { Space, Table, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { mono, type Reading, type ReplayLine } from "./recorded-types";

/** What one version extracted from one sample: a count, the first titles, or its error. */
function ReadingCell({ reading, against }: { reading: Reading | null; against?: Reading | null }) {
  if (!reading) return <Typography.Text type="secondary">—</Typography.Text>;
  // Worse than the version in use: fewer items than before, or an error where there was none.
  const worse = against ? (reading.error !== null && against.error === null) || reading.count < against.count : false;
  return (
    <Space direction="vertical" size={2} style={{ width: "100%" }} data-testid="replay-reading">
      <Space size={4}>
        <Tag color={reading.error ? "red" : reading.count === 0 ? "orange" : "green"}>{reading.error ? "出错" : `${reading.count} 条`}</Tag>
        {worse ? <Tag color="red">比当前版本少</Tag> : null}
      </Space>
      {reading.error ? (
        <Typography.Text type="danger" style={{ fontSize: 12, wordBreak: "break-all" }}>
          {reading.error}
        </Typography.Text>
      ) : (
        reading.titles.map((t, i) => (
          <Typography.Text key={i} style={{ fontSize: 12, wordBreak: "break-all" }}>
            {t}
          </Typography.Text>
        ))
      )}
    </Space>
  );
}

/** A replay: every sample, what the version in use extracts beside what the new one does. */
export function ReplayTable({ rows, oldLabel, newLabel }: { rows: ReplayLine[]; oldLabel: string | null; newLabel: string }) {
  const columns: ColumnsType<ReplayLine> = [
    {
      title: "样本",
      key: "answer",
      width: 280,
      render: (_v, row) => (
        <Space direction="vertical" size={2}>
          <Space size={4}>
            <Tag>{RECORDED_CALL_TEXT[row.answer.call?.method ?? "search"] ?? row.answer.call?.method}</Tag>
            <Tag color={row.answer.status < 400 ? "default" : "red"}>HTTP {row.answer.status}</Tag>
          </Space>
          <Typography.Text style={{ ...mono, wordBreak: "break-all" }}>{row.answer.url}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {new Date(row.answer.at).toLocaleString("zh-CN")} · {row.answer.reason}
          </Typography.Text>
        </Space>
      ),
    },
    ...(oldLabel ? [{ title: oldLabel, key: "old", render: (_v: unknown, row: ReplayLine) => <ReadingCell reading={row.old} /> }] : []),
    { title: newLabel, key: "new", render: (_v: unknown, row: ReplayLine) => <ReadingCell reading={row.new} against={row.old} /> },
  ];
  return <Table<ReplayLine> rowKey={(r) => r.answer.id} size="small" tableLayout="fixed" columns={columns} dataSource={rows} pagination={false} data-testid="replay-table" />;
}
