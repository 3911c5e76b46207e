import { adminPeoplePaths, adminUserMessages, USER_STATUS_TEXT } from "@contracts/admin-people-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button, Drawer, Popconfirm, Select, Space, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { ExportButton } from "../../components/admin/ExportButton";
import { AdminTable, type AdminTableHandle } from "../../components/admin/AdminTable";
import { CoinAdjustDialog } from "../../components/admin/people/CoinAdjustDialog";
import { type EditableUser, UserEditDialog } from "../../components/admin/people/UserEditDialog";
import { UserNickname } from "../../components/admin/people/UserNickname";
import { adminCall } from "../../lib/admin-api";
import { dateOf, formatTime } from "../../lib/admin-format";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("用户列表");

interface UserRow extends EditableUser {
  email: string;
  status: number;
  status_text: string;
  createtime: number;
  downloads: number;
}

interface DownloadRow {
  id: number;
  item_id: number;
  title: string;
  coins: number;
  createtime: number;
}

const downloadColumns: ColumnsType<DownloadRow> = [
  { title: "套曲", dataIndex: "title", render: (title: string, row) => <a href={`/sutie/${row.item_id}.html`} target="_blank" rel="noreferrer">{title || `#${row.item_id}`}</a> },
  { title: "花费金币", dataIndex: "coins", width: 100, sorter: true, key: "coins" },
  { title: "下载时间", dataIndex: "createtime", width: 180, sorter: true, key: "createtime", render: formatTime },
];

/** 用户列表 (超级管理员): members, their edits, enable/disable (logged out at once), downloads. */
export default function UserList() {
  const table = useRef<AdminTableHandle>(null);
  const { message } = App.useApp();
  const [status, setStatus] = useState<string>("");
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [downloadsOf, setDownloadsOf] = useState<UserRow | null>(null);
  const [adjusting, setAdjusting] = useState<UserRow | null>(null);

  async function switchStatus(row: UserRow) {
    const next = row.status === 1 ? 0 : 1;
    try {
      const res = await adminCall("POST", adminPeoplePaths.userStatus(row.id), { status: next });
      if (res.code === 1) void message.success(res.msg || (next === 0 ? adminUserMessages.disabled : adminUserMessages.enabled));
      else void message.error(res.msg || adminTableMessages.saveFailed);
    } catch {
      void message.error(adminTableMessages.saveFailed);
    }
    table.current?.reload();
  }

  const columns: ColumnsType<UserRow> = [
    { title: "ID", dataIndex: "id", key: "id", width: 80, sorter: true },
    { title: "用户名", dataIndex: "username", key: "username", width: 150, sorter: true, ellipsis: true },
    { title: "昵称", dataIndex: "nickname", width: 130, ellipsis: true, render: (n: string, row) => <UserNickname nickname={n} username={row.username} /> },
    {
      title: "状态",
      dataIndex: "status",
      key: "status",
      width: 90,
      render: (s: number) => <Tag color={s === 1 ? "green" : "red"}>{USER_STATUS_TEXT[s] ?? s}</Tag>,
    },
    { title: "邮箱", dataIndex: "email", key: "email", sorter: true, ellipsis: true },
    { title: "金币", dataIndex: "coins", key: "coins", width: 90, sorter: true },
    { title: "VIP 到期", dataIndex: "vip_until", key: "vip_until", width: 120, sorter: true, render: (v: number | null) => (v ? dateOf(v) : "-") },
    { title: "注册时间", dataIndex: "createtime", key: "createtime", width: 180, sorter: true, render: formatTime },
    {
      title: "操作",
      key: "actions",
      width: 340,
      fixed: "right",
      render: (_v, row) => (
        <Space size="small">
          <Button size="small" onClick={() => setEditing(row)}>
            编辑
          </Button>
          <Button size="small" onClick={() => setAdjusting(row)}>
            调整金币
          </Button>
          <Popconfirm
            title={row.status === 1 ? `禁用 ${row.username}？` : `启用 ${row.username}？`}
            description={row.status === 1 ? "禁用后该用户立即被强制下线" : undefined}
            okText="确定"
            cancelText="取消"
            onConfirm={() => switchStatus(row)}
          >
            <Button size="small" danger={row.status === 1}>
              {row.status === 1 ? "禁用" : "启用"}
            </Button>
          </Popconfirm>
          <Button size="small" onClick={() => setDownloadsOf(row)}>
            下载记录({row.downloads})
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <AdminPage title="用户列表">
      <AdminTable<UserRow>
        ref={table}
        api={adminPeoplePaths.users}
        columns={columns}
        searchPlaceholder="用户名 / 邮箱 / 昵称 / ID"
        filter={status ? { status } : undefined}
        testId="user-table"
        filters={
          <Select
            aria-label="状态"
            value={status}
            onChange={setStatus}
            style={{ width: 120 }}
            options={[
              { value: "", label: "全部状态" },
              { value: "1", label: "正常" },
              { value: "0", label: "禁用" },
            ]}
          />
        }
        toolbar={() => <ExportButton table="users" query={() => table.current?.query() ?? {}} />}
      />
      <UserEditDialog
        user={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          table.current?.reload();
        }}
      />
      <CoinAdjustDialog
        user={adjusting}
        onClose={() => setAdjusting(null)}
        onSaved={() => {
          setAdjusting(null);
          table.current?.reload();
        }}
      />
      <Drawer open={downloadsOf !== null} onClose={() => setDownloadsOf(null)} title={downloadsOf ? `${downloadsOf.username} 的下载记录` : ""} size="large" destroyOnHidden>
        {downloadsOf ? <AdminTable<DownloadRow> api={adminPeoplePaths.userDownloads(downloadsOf.id)} columns={downloadColumns} searchPlaceholder="套曲名称" testId="user-downloads" /> : null}
      </Drawer>
    </AdminPage>
  );
}
