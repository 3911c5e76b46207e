import { PlusOutlined } from "@ant-design/icons";
import { adminUsernameField, fieldMessages, resetPasswordField, nicknameField } from "@contracts/account-fields";
import { adminAccountMessages as m } from "@contracts/admin-account-texts";
import type { AdminRow } from "@contracts/admin-accounts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { ADMIN_ROLE_CODES, ADMIN_ROLE_NAMES, type AdminRoleCode } from "@contracts/admin-texts";
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { AdminTable, type AdminTableHandle } from "../../components/admin/AdminTable";
import { formatAdminTime } from "../../components/admin/admin-time";
import { adminCall } from "../../lib/admin-api";
import { sameAs, zodRule } from "../../lib/form-rules";
import { pageMeta } from "../../lib/site";
import { useSession } from "../../session/store";

export const meta = () => pageMeta("管理员");

const ROLE_OPTIONS = ADMIN_ROLE_CODES.map((code) => ({ value: code, label: ADMIN_ROLE_NAMES[code] }));

/** 管理员 (超级管理员 only: the admin layout shows an editor 需要超级管理员权限 instead): list, add, nickname and role, enable/disable, reset a password. */
export default function AdminsPage() {
  return (
    <AdminPage title="管理员">
      <AdminsScreen />
    </AdminPage>
  );
}

type Dialog = { kind: "create" } | { kind: "edit"; row: AdminRow } | { kind: "password"; row: AdminRow } | null;

function AdminsScreen() {
  const table = useRef<AdminTableHandle>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const { message } = App.useApp();
  const me = useSession((s) => s.admin?.id);

  /** A call whose answer is shown as it is; the table reloads on success. */
  async function act(method: "POST" | "PATCH", path: string, body: Record<string, unknown>): Promise<boolean> {
    try {
      const answer = await adminCall<unknown>(method, path, body);
      if (answer.code === 1) {
        void message.success(answer.msg);
        table.current?.reload();
        return true;
      }
      void message.error(answer.msg || adminTableMessages.saveFailed);
    } catch {
      void message.error(adminTableMessages.saveFailed);
    }
    return false;
  }

  const columns: ColumnsType<AdminRow> = [
    { title: "ID", dataIndex: "id", key: "id", width: 80, sorter: true },
    { title: "账号", dataIndex: "username", key: "username", sorter: true },
    { title: "昵称", dataIndex: "nickname", key: "nickname" },
    {
      title: "角色",
      dataIndex: "role",
      key: "role",
      render: (role: AdminRoleCode, row) => <Tag color={role === "super" ? "purple" : "blue"}>{row.role_text}</Tag>,
    },
    {
      title: "状态",
      dataIndex: "status",
      key: "status",
      render: (status: number, row) => <Tag color={status === 1 ? "green" : "red"}>{row.status_text}</Tag>,
    },
    { title: "最后登录", dataIndex: "last_login", key: "last_login", sorter: true, width: 170, render: (t: number | null) => formatAdminTime(t) },
    { title: "创建时间", dataIndex: "createtime", key: "createtime", sorter: true, width: 170, render: (t: number) => formatAdminTime(t) },
    {
      title: "操作",
      key: "actions",
      render: (_, row) => (
        <Space size="small" wrap>
          <Button size="small" onClick={() => setDialog({ kind: "edit", row })}>
            编辑
          </Button>
          {row.status === 1 ? (
            <Popconfirm title={`禁用 ${row.username}？`} description="其登录会立即失效" onConfirm={() => act("POST", `/api/pandaadmin/admins/${row.id}/status`, { status: 0 })} okText="禁用" cancelText="取消" disabled={row.id === me}>
              <Button size="small" danger disabled={row.id === me} title={row.id === me ? m.selfDisable : undefined}>
                禁用
              </Button>
            </Popconfirm>
          ) : (
            <Button size="small" onClick={() => void act("POST", `/api/pandaadmin/admins/${row.id}/status`, { status: 1 })}>
              启用
            </Button>
          )}
          <Button size="small" onClick={() => setDialog({ kind: "password", row })}>
            重置密码
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <AdminTable<AdminRow>
        ref={table}
        api="/api/pandaadmin/admins/index"
        columns={columns}
        searchPlaceholder="账号 / 昵称 / ID"
        testId="admins-table"
        toolbar={() => (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: "create" })}>
            添加管理员
          </Button>
        )}
      />
      {dialog?.kind === "create" || dialog?.kind === "edit" ? (
        <AdminFormDialog
          row={dialog.kind === "edit" ? dialog.row : undefined}
          self={dialog.kind === "edit" && dialog.row.id === me}
          onClose={() => setDialog(null)}
          onSave={(body) =>
            dialog.kind === "edit" ? act("PATCH", `/api/pandaadmin/admins/${dialog.row.id}`, body) : act("POST", "/api/pandaadmin/admins", body)
          }
        />
      ) : null}
      {dialog?.kind === "password" ? (
        <ResetPasswordDialog row={dialog.row} onClose={() => setDialog(null)} onSave={(body) => act("POST", `/api/pandaadmin/admins/${dialog.row.id}/password`, body)} />
      ) : null}
    </>
  );
}

interface AdminFormValues {
  username?: string;
  password?: string;
  nickname: string;
  role: AdminRoleCode;
}

/** Add (username, password, nickname, role) or edit (nickname, role). */
function AdminFormDialog({ row, self, onClose, onSave }: { row?: AdminRow; self: boolean; onClose: () => void; onSave: (body: Record<string, unknown>) => Promise<boolean> }) {
  const [form] = Form.useForm<AdminFormValues>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    // A form with errors shows them under its fields; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const body = row ? { nickname: values.nickname, role: values.role } : { ...values };
    const saved = await onSave(body).finally(() => setSaving(false));
    if (saved) onClose();
  };
  return (
    <Modal title={row ? `编辑管理员 ${row.username}` : "添加管理员"} open onOk={() => void submit()} onCancel={onClose} confirmLoading={saving} okText="保存" cancelText="取消">
      <Form form={form} layout="vertical" name="admin-form" requiredMark={false} initialValues={row ? { nickname: row.nickname, role: row.role } : { role: "editor" }}>
        {row ? null : (
          <>
            <Form.Item label="账号" name="username" rules={[zodRule(adminUsernameField)]}>
              <Input autoComplete="off" maxLength={20} placeholder="3 到 20 个字符" />
            </Form.Item>
            <Form.Item label="密码" name="password" rules={[zodRule(resetPasswordField)]}>
              <Input.Password autoComplete="new-password" maxLength={30} placeholder="6 到 30 个字符" />
            </Form.Item>
          </>
        )}
        <Form.Item label="昵称" name="nickname" rules={[zodRule(nicknameField)]}>
          <Input maxLength={20} placeholder="2 到 20 个字符" />
        </Form.Item>
        <Form.Item label="角色" name="role" rules={[{ required: true, message: m.roleRequired }]} extra={self ? m.selfDemote : undefined}>
          <Select options={ROLE_OPTIONS} disabled={self} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ResetPasswordDialog({ row, onClose, onSave }: { row: AdminRow; onClose: () => void; onSave: (body: Record<string, unknown>) => Promise<boolean> }) {
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const { password } = values;
    setSaving(true);
    const saved = await onSave({ password }).finally(() => setSaving(false));
    if (saved) onClose();
  };
  return (
    <Modal title={`重置 ${row.username} 的密码`} open onOk={() => void submit()} onCancel={onClose} confirmLoading={saving} okText="重置" cancelText="取消">
      <p>重置后该管理员的登录会全部失效，需用新密码重新登录。</p>
      <Form form={form} layout="vertical" name="admin-reset" requiredMark={false}>
        <Form.Item label="新密码" name="password" rules={[zodRule(resetPasswordField)]}>
          <Input.Password autoComplete="new-password" maxLength={30} />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirm"
          dependencies={["password"]}
          rules={[sameAs("password", fieldMessages.confirmMismatch)]}
        >
          <Input.Password autoComplete="new-password" maxLength={30} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
