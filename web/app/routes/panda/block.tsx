import { PlusOutlined } from "@ant-design/icons";
import { adminContentPaths as paths } from "@contracts/admin-content-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button, Space, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { AdminTable, type AdminTableHandle } from "../../components/admin/AdminTable";
import { DRAG_HINT, DragHandle } from "../../components/admin/content/DragHandle";
import { useDragSort } from "../../components/admin/content/use-drag-sort";
import { adminSave } from "../../components/admin/content/admin-save";
import { BlockDialog, type BlockRecord } from "../../components/admin/content/BlockDialog";
import { BlockItemsDrawer } from "../../components/admin/content/BlockItems";
import { pageMeta } from "../../lib/site";
import { DeleteConfirm } from "../../components/admin/DeleteConfirm";

export const meta = () => pageMeta("区块管理");

/** 区块管理: the home carousel (indexfocus) and partner logos (indexweb), with their items. */
export default function BlockManager() {
  const { message } = App.useApp();
  const table = useRef<AdminTableHandle>(null);
  const [editing, setEditing] = useState<{ record: BlockRecord | null } | null>(null);
  const [itemsOf, setItemsOf] = useState<BlockRecord | null>(null);

  const remove = async (record: BlockRecord) => {
    if (await adminSave(message, "DELETE", `${paths.block}/${record.id}`, undefined, adminTableMessages.deleteFailed)) table.current?.reload();
  };

  const dragRow = useDragSort<BlockRecord>(paths.blockSort, table, false);

  const columns: ColumnsType<BlockRecord> = [
    { title: "", key: "drag", width: 40, render: () => <DragHandle /> },
    { title: "ID", dataIndex: "id", key: "id", width: 70, sorter: true },
    { title: "名称", dataIndex: "name", key: "name" },
    { title: "位置", dataIndex: "position_text", key: "position", render: (text: string, r) => `${text}（${r.position}）` },
    { title: "内容数", dataIndex: "items", key: "items", width: 90 },
    { title: "排序", dataIndex: "sort", key: "sort", width: 80, sorter: true },
    {
      title: "状态",
      dataIndex: "status",
      key: "status",
      width: 80,
      render: (on: boolean, r) => <Tag color={on ? "green" : "default"}>{r.status_text}</Tag>,
    },
    {
      title: "操作",
      key: "actions",
      width: 200,
      render: (_, record) => (
        <Space>
          <Button type="link" size="small" onClick={() => setItemsOf(record)}>
            内容
          </Button>
          <Button type="link" size="small" onClick={() => setEditing({ record })}>
            编辑
          </Button>
          <DeleteConfirm title={`确定删除区块「${record.name}」及其全部内容吗？`} onConfirm={() => remove(record)} link />
        </Space>
      ),
    },
  ];

  return (
    <AdminPage title="区块管理">
      <AdminTable<BlockRecord>
        ref={table}
        api={paths.blockIndex}
        columns={columns}
        searchPlaceholder="区块名称或ID"
        testId="block-table"
        tableProps={{ onRow: dragRow }}
        toolbar={() => (
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })}>
              添加区块
            </Button>
            <span className={DRAG_HINT.className}>{DRAG_HINT.text}</span>
          </>
        )}
      />
      <BlockDialog
        open={editing !== null}
        record={editing?.record ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          table.current?.reload();
        }}
      />
      <BlockItemsDrawer block={itemsOf} onClose={() => setItemsOf(null)} onChanged={() => table.current?.reload()} />
    </AdminPage>
  );
}
