import { type AdminCommentRow, adminCommentMessages, adminPeoplePaths, COMMENT_STATUS_TEXT } from "@contracts/admin-people-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button, Input, Select, Space, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useMemo, useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { AdminTable, type AdminTableHandle, batchLabel } from "../../components/admin/AdminTable";
import { adminCall } from "../../lib/admin-api";
import { formatTime } from "../../lib/admin-format";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";
import type { MetaArgs } from "react-router";
import { DeleteConfirm } from "../../components/admin/DeleteConfirm";

export const meta = ({ matches }: MetaArgs) => pageMeta("评论管理", undefined, siteOf(matches));

type CommentRow = AdminCommentRow;

/** 评论管理: newest first; filter by suite or member; hide, show again, delete (single and batch). */
export default function Comments() {
  const table = useRef<AdminTableHandle>(null);
  const { message } = App.useApp();
  const [status, setStatus] = useState("");
  const [suite, setSuite] = useState("");
  const [member, setMember] = useState("");

  const { filter, op } = useMemo(() => {
    const f: Record<string, string> = {};
    const o: Record<string, string> = {};
    if (status) f.status = status;
    if (/^\d+$/u.test(suite.trim())) f.item_id = suite.trim();
    else if (suite.trim()) [f.item_title, o.item_title] = [suite.trim(), "LIKE"];
    if (/^\d+$/u.test(member.trim())) f.user_id = member.trim();
    else if (member.trim()) [f.username, o.username] = [member.trim(), "LIKE"];
    return { filter: f, op: o };
  }, [status, suite, member]);

  async function act(path: string, body: Record<string, unknown>, okText: string, failText: string) {
    try {
      const res = await adminCall("POST", path, body);
      if (res.code === 1) void message.success(okText);
      else void message.error(res.msg || failText);
    } catch {
      void message.error(failText);
    }
    table.current?.clearSelection();
    table.current?.reload();
  }
  const hide = (ids: number[], hidden: boolean) =>
    act(adminPeoplePaths.commentsHide, { ids, hidden }, hidden ? adminCommentMessages.hidden : adminCommentMessages.shown, adminTableMessages.saveFailed);
  const remove = (ids: number[]) =>
    act(adminPeoplePaths.commentsDelete, { ids }, ids.length > 1 ? adminTableMessages.batchDeleteOk : adminTableMessages.deleteOk, ids.length > 1 ? adminTableMessages.batchDeleteFailed : adminTableMessages.deleteFailed);

  const columns: ColumnsType<CommentRow> = [
    { title: "ID", dataIndex: "id", key: "id", width: 80, sorter: true },
    {
      title: "内容",
      dataIndex: "content",
      render: (text: string, row) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: text }} style={{ margin: 0 }} type={row.status === "hidden" ? "secondary" : undefined}>
          {row.parent_id ? <Tag>回复</Tag> : null}
          {text}
        </Typography.Paragraph>
      ),
    },
    { title: "套曲", dataIndex: "item_title", key: "item_title", width: 200, render: (t: string, row) => <a href={`/sutie/${row.item_id}.html`} target="_blank" rel="noreferrer">{t}</a> },
    { title: "用户", dataIndex: "username", key: "username", width: 140, render: (u: string, row) => (row.nickname ? `${row.nickname} (${u})` : u) },
    { title: "时间", dataIndex: "createtime", key: "createtime", width: 180, sorter: true, defaultSortOrder: "descend", render: formatTime },
    { title: "状态", dataIndex: "status", key: "status", width: 90, render: (s: string) => <Tag color={s === "normal" ? "green" : "default"}>{COMMENT_STATUS_TEXT[s] ?? s}</Tag> },
    {
      title: "操作",
      key: "actions",
      width: 150,
      render: (_v, row) => (
        <Space size="small">
          <Button size="small" onClick={() => void hide([row.id], row.status === "normal")}>
            {row.status === "normal" ? "隐藏" : "显示"}
          </Button>
          <DeleteConfirm title="删除这条评论（连同回复）？" onConfirm={() => remove([row.id])} />
        </Space>
      ),
    },
  ];

  const filters = (
    <>
      <Input.Search allowClear placeholder="套曲 ID 或名称" aria-label="按套曲筛选" onSearch={setSuite} style={{ width: 200 }} />
      <Input.Search allowClear placeholder="用户 ID 或用户名" aria-label="按用户筛选" onSearch={setMember} style={{ width: 200 }} />
      <Select
        aria-label="状态"
        value={status}
        onChange={setStatus}
        style={{ width: 120 }}
        options={[
          { value: "", label: "全部状态" },
          { value: "normal", label: "正常" },
          { value: "hidden", label: "已隐藏" },
        ]}
      />
    </>
  );

  return (
    <AdminPage title="评论管理">
      <AdminTable<CommentRow>
        ref={table}
        api={adminPeoplePaths.comments}
        columns={columns}
        filter={filter}
        op={op}
        searchPlaceholder="评论内容"
        selectable
        testId="comment-table"
        filters={filters}
        toolbar={({ ids }) => (
          <>
            <Button disabled={ids.length === 0} onClick={() => void hide(ids, true)}>
              {batchLabel("批量隐藏", ids.length)}
            </Button>
            <DeleteConfirm title={`删除选中的 ${ids.length} 条评论？`} onConfirm={() => remove(ids)} label={batchLabel("批量删除", ids.length)} disabled={ids.length === 0} />
          </>
        )}
      />
    </AdminPage>
  );
}
