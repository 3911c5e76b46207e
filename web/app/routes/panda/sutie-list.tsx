import { DeleteOutlined, PlusOutlined, UndoOutlined } from "@ant-design/icons";
import { adminTableMessages as t } from "@contracts/admin-table-texts";
import { suitePath } from "@contracts/paths";
import { SUITE_BIN_DAYS, SUITE_MODEL_ID, type SuiteListRow, type SuiteChannelOption, suiteListMessages as m } from "@contracts/suite-list-texts";
import { Alert, App, Button, Popconfirm, Segmented, Select, Space, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table/interface";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { AdminPage } from "../../components/admin/AdminPage";
import { ExportButton } from "../../components/admin/ExportButton";
import { AdminTable, type AdminTableHandle, batchLabel } from "../../components/admin/AdminTable";
import { adminCall } from "../../lib/admin-api";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";
import type { MetaArgs } from "react-router";
import { DeleteConfirm } from "../../components/admin/DeleteConfirm";

export const meta = ({ matches }: MetaArgs) => pageMeta("套曲列表", undefined, siteOf(matches));

/** The category filter's options: parents first, each child under its parent. */
function channelOptions(channels: SuiteChannelOption[]) {
  const children = (id: number | null) => channels.filter((c) => c.parent_id === id);
  const roots = channels.filter((c) => c.parent_id === null || !channels.some((p) => p.id === c.parent_id));
  return roots.flatMap((root) => [
    { value: root.id, label: root.name },
    ...children(root.id).map((c) => ({ value: c.id, label: `\u3000${c.name}` })),
  ]);
}

/** A category and everything under it: the original's filter sends the whole branch ("51,115,114,50"). */
function branch(channels: SuiteChannelOption[], id: number): number[] {
  return [id, ...channels.filter((c) => c.parent_id === id).flatMap((c) => branch(channels, c.id))];
}

/** Whole days a binned suite has left before the daily sweep purges it. */
function binDaysLeft(deletetime: number | null): number {
  if (deletetime === null) return SUITE_BIN_DAYS;
  // The server's time is whole seconds, rounded: just after a delete it can be a fraction ahead of
  // the browser's clock, which must not read as a day not yet begun (31 天).
  const elapsedS = Math.max(0, Date.now() / 1000 - deletetime);
  return SUITE_BIN_DAYS - Math.floor(elapsedS / 86_400);
}

/** 套曲列表 (issue 12, ADR 0028): the suite table, its category filter, deletes and 正常/禁用. */
export default function SuiteList() {
  const { message } = App.useApp();
  const table = useRef<AdminTableHandle>(null);
  const [channels, setChannels] = useState<SuiteChannelOption[]>([]);
  const [channel, setChannel] = useState<number | undefined>();
  // 回收站: the deleted suites (trash=1), with 还原 and 彻底删除 instead of the usual actions.
  const [bin, setBin] = useState(false);

  useEffect(() => {
    void adminCall<SuiteChannelOption[]>("GET", "/api/pandaadmin/sutie/channels")
      .then((answer) => answer.code === 1 && setChannels(answer.data))
      .catch(() => undefined);
  }, []);

  const options = useMemo(() => channelOptions(channels), [channels]);
  const filter = channel === undefined ? undefined : { channel_id: branch(channels, channel).join(",") };
  const op = channel === undefined ? undefined : { channel_id: "IN" };

  async function remove(ids: number[], batch: boolean) {
    const failed = batch ? t.batchDeleteFailed : t.deleteFailed;
    try {
      const answer = batch ? await adminCall("DELETE", "/api/sutie/batch", { ids }) : await adminCall("DELETE", `/api/sutie/${ids[0]}`);
      if (answer.code !== 1) return void message.error(answer.msg || failed);
      void message.success(batch ? t.batchDeleteOk : t.deleteOk);
      table.current?.clearSelection();
      table.current?.reload();
    } catch {
      void message.error(failed);
    }
  }

  /** 还原 or 彻底删除 suites of the recycle bin. */
  async function fromBin(ids: number[], action: "restore" | "purge") {
    try {
      const answer = await adminCall("POST", `/api/sutie/${action}`, { ids });
      if (answer.code !== 1) return void message.error(answer.msg || t.deleteFailed);
      void message.success(answer.msg);
      table.current?.clearSelection();
      table.current?.reload();
    } catch {
      void message.error(t.deleteFailed);
    }
  }

  async function setStatus(row: SuiteListRow) {
    const status = row.status === "normal" ? "hidden" : "normal";
    try {
      const answer = await adminCall("POST", "/api/sutie/status", { ids: [row.id], status });
      if (answer.code !== 1) return void message.error(answer.msg || m.statusFailed);
      void message.success(answer.msg);
      table.current?.reload();
    } catch {
      void message.error(m.statusFailed);
    }
  }

  const columns: ColumnsType<SuiteListRow> = [
    { title: "ID", dataIndex: "id", key: "id", width: 90, sorter: true },
    {
      title: "标题",
      dataIndex: "title",
      key: "title",
      ellipsis: true,
      render: (title: string, row) => (
        <a href={suitePath(row.id)} target="_blank" rel="noreferrer">
          {title}
        </a>
      ),
    },
    { title: "分类", key: "channel_id", width: 140, render: (_, row) => row.channel?.name ?? "—" },
    {
      title: "状态",
      dataIndex: "status_text",
      key: "status",
      width: bin ? 140 : 90,
      render: (text: string, row) =>
        bin ? (
          <>
            <Tag color="warning">已删除</Tag>
            <br />
            <Typography.Text type="secondary" data-testid="purge-in">
              {m.purgeIn(binDaysLeft(row.deletetime))}
            </Typography.Text>
          </>
        ) : (
          <Tag color={row.status === "normal" ? "success" : "default"}>{text}</Tag>
        ),
    },
    // In the bin, when each went there (what the daily sweep counts from) instead of when it was published.
    bin
      ? { title: "删除时间", dataIndex: "deletetime_text", key: "deletetime", width: 180 }
      : { title: "发布时间", dataIndex: "publishtime_text", key: "publishtime", width: 180, sorter: true },
    {
      title: "操作",
      key: "actions",
      width: bin ? 150 : 200,
      render: (_, row) =>
        bin ? (
          <Space size={4}>
            <Button size="small" type="link" onClick={() => void fromBin([row.id], "restore")}>
              还原
            </Button>
            <DeleteConfirm title={m.purgeConfirm(1)} label="彻底删除" onConfirm={() => fromBin([row.id], "purge")} link />
          </Space>
        ) : (
        <Space size={4}>
          <Link to={`/panda/edit/${row.id}`}>
            <Button size="small" type="link">
              编辑
            </Button>
          </Link>
          <Button size="small" type="link" onClick={() => void setStatus(row)}>
            {row.status === "normal" ? "禁用" : "启用"}
          </Button>
          <DeleteConfirm title={m.deleteConfirm} onConfirm={() => remove([row.id], false)} link />
        </Space>
        ),
    },
  ];

  return (
    <AdminPage title="套曲列表">
      {bin ? <Alert type="info" showIcon title={m.binTip} style={{ marginBottom: 12 }} /> : null}
      <AdminTable<SuiteListRow>
        ref={table}
        api="/pandaadmin/cms/archives/index"
        params={{ model_id: SUITE_MODEL_ID, trash: bin ? "1" : undefined }}
        columns={columns}
        searchPlaceholder={m.searchPlaceholder}
        filter={filter}
        op={op}
        selectable
        testId="suite-table"
        toolbar={({ ids }) => (
          <>
            <Segmented
              value={bin ? "bin" : "suites"}
              onChange={(v) => {
                table.current?.clearSelection();
                setBin(v === "bin");
              }}
              options={[
                { value: "suites", label: "全部套曲" },
                { value: "bin", label: "回收站" },
              ]}
              data-testid="suite-bin-switch"
            />
            {bin ? (
              <>
                <Button icon={<UndoOutlined />} disabled={ids.length === 0} onClick={() => void fromBin(ids, "restore")}>
                  批量还原
                </Button>
                <DeleteConfirm title={m.purgeConfirm(ids.length)} label="批量彻底删除" disabled={ids.length === 0} onConfirm={() => fromBin(ids, "purge")} />
              </>
            ) : (
              <>
            <Link to="/panda/add">
              <Button type="primary" icon={<PlusOutlined />}>
                添加
              </Button>
            </Link>
            <Popconfirm
              title={m.batchDeleteConfirm(ids.length)}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              disabled={ids.length === 0}
              onConfirm={() => remove(ids, true)}
            >
              <Button danger icon={<DeleteOutlined />} disabled={ids.length === 0}>
                {batchLabel("批量删除", ids.length)}
              </Button>
            </Popconfirm>
              </>
            )}
            <ExportButton table="suites" query={() => table.current?.query() ?? {}} />
          </>
        )}
        filters={
          <Select
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            placeholder={m.channelPlaceholder}
            options={options}
            value={channel}
            onChange={(value: number | undefined) => setChannel(value)}
            style={{ width: 180 }}
            aria-label={m.channelPlaceholder}
          />
        }
      />
    </AdminPage>
  );
}
