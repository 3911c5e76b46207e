import { adminPeoplePaths } from "@contracts/admin-people-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button, Radio, Space, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useCallback, useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { ExportButton } from "../../components/admin/ExportButton";
import { AdminTable, type AdminTableHandle, batchLabel } from "../../components/admin/AdminTable";
import { CollectProgress } from "../../components/admin/people/CollectProgress";
import { adminCall } from "../../lib/admin-api";
import { formatTime } from "../../lib/admin-format";
import { pageMeta } from "../../lib/site";
import { DeleteConfirm } from "../../components/admin/DeleteConfirm";

export const meta = () => pageMeta("采集数据");

interface CollectedRow {
  id: number;
  title: string;
  source: string;
  source_url: string;
  createtime: number;
  status: "0" | "1";
  status_text: string;
  item_id: number | null;
}

interface ProcessAnswer {
  results: { id: number; itemId: number | null; error: string | null }[];
  processed: number;
  failed: number;
}

/** 采集数据: search, status filter, process and delete (single and batch), 开始采集 with live progress. */
export default function CollectData() {
  const table = useRef<AdminTableHandle>(null);
  const { message } = App.useApp();
  const [status, setStatus] = useState<"all" | "0" | "1">("all");
  const reload = useCallback(() => table.current?.reload(), []);

  async function process(ids: number[]) {
    try {
      const res = await adminCall<ProcessAnswer>("POST", adminPeoplePaths.collectedProcess, { ids });
      if (res.code !== 1) void message.error(res.msg || "处理失败");
      else if (res.data.failed === 0) void message.success(`处理成功 ${res.data.processed} 条`);
      else {
        const why = res.data.results.find((r) => r.error)?.error ?? "";
        void message.warning(`处理成功 ${res.data.processed} 条，失败 ${res.data.failed} 条：${why}`);
      }
    } catch {
      void message.error("处理失败");
    }
    table.current?.clearSelection();
    reload();
  }

  async function remove(ids: number[]) {
    const batch = ids.length > 1;
    try {
      const res = await adminCall("POST", adminPeoplePaths.collectedDelete, { ids });
      if (res.code === 1) void message.success(batch ? adminTableMessages.batchDeleteOk : adminTableMessages.deleteOk);
      else void message.error(res.msg || (batch ? adminTableMessages.batchDeleteFailed : adminTableMessages.deleteFailed));
    } catch {
      void message.error(batch ? adminTableMessages.batchDeleteFailed : adminTableMessages.deleteFailed);
    }
    table.current?.clearSelection();
    reload();
  }

  const columns: ColumnsType<CollectedRow> = [
    { title: "ID", dataIndex: "id", key: "id", width: 80, sorter: true },
    {
      title: "标题",
      dataIndex: "title",
      key: "title",
      render: (title: string, row) => (
        <a href={row.source_url} target="_blank" rel="noreferrer">
          {title}
        </a>
      ),
    },
    { title: "来源", dataIndex: "source", key: "source", width: 110, sorter: true },
    { title: "采集时间", dataIndex: "createtime", key: "createtime", width: 180, sorter: true, render: formatTime },
    {
      title: "状态",
      dataIndex: "status",
      key: "status",
      width: 150,
      render: (s: string, row) => (
        <Space size={4}>
          <Tag color={s === "1" ? "green" : "orange"}>{row.status_text}</Tag>
          {row.item_id ? (
            <a href={`/sutie/${row.item_id}.html`} target="_blank" rel="noreferrer">
              查看
            </a>
          ) : null}
        </Space>
      ),
    },
    {
      title: "操作",
      key: "actions",
      width: 150,
      render: (_v, row) => (
        <Space size="small">
          <Button size="small" type="primary" ghost onClick={() => void process([row.id])}>
            {row.status === "1" ? "重新处理" : "处理"}
          </Button>
          <DeleteConfirm title="删除这条采集数据？(已生成的套曲保留)" onConfirm={() => remove([row.id])} />
        </Space>
      ),
    },
  ];

  return (
    <AdminPage title="采集数据">
      <CollectProgress onFinished={reload} />
      <AdminTable<CollectedRow>
        ref={table}
        api={adminPeoplePaths.collected}
        columns={columns}
        params={{ status }}
        searchPlaceholder="标题 / ID"
        selectable
        testId="collected-table"
        toolbar={({ ids }) => (
          <>
            <Radio.Group
              aria-label="状态"
              optionType="button"
              value={status}
              onChange={(e) => setStatus(e.target.value as typeof status)}
              options={[
                { value: "all", label: "全部" },
                { value: "0", label: "未处理" },
                { value: "1", label: "已处理" },
              ]}
            />
            <Button type="primary" disabled={ids.length === 0} onClick={() => void process(ids)}>
              {batchLabel("批量处理", ids.length)}
            </Button>
            <ExportButton table="collected" query={() => table.current?.query() ?? {}} />
            <DeleteConfirm title={`删除选中的 ${ids.length} 条采集数据？`} onConfirm={() => remove(ids)} label={batchLabel("批量删除", ids.length)} disabled={ids.length === 0} />
          </>
        )}
      />
    </AdminPage>
  );
}
