import { PlusOutlined } from "@ant-design/icons";
import { adminContentPaths as paths, CATEGORY_MODELS } from "@contracts/admin-content-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button, Space, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { AdminTable, type AdminTableHandle } from "../../components/admin/AdminTable";
import { adminSave } from "../../components/admin/content/admin-save";
import { CategoryDialog, type CategoryRecord } from "../../components/admin/content/CategoryDialog";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";
import type { MetaArgs } from "react-router";
import { DeleteConfirm } from "../../components/admin/DeleteConfirm";
import { DRAG_HINT, DragHandle } from "../../components/admin/content/DragHandle";
import { useDragSort } from "../../components/admin/content/use-drag-sort";

export const meta = ({ matches }: MetaArgs) => pageMeta("套曲分类", undefined, siteOf(matches));

const MODEL_TEXT = new Map<number, string>(CATEGORY_MODELS.map((m) => [m.value, m.label]));

/** 套曲分类: the categories of the top navigation and /sort pages (issue 12). */
export default function SuiteCategories() {
  const { message } = App.useApp();
  const table = useRef<AdminTableHandle>(null);
  const [editing, setEditing] = useState<{ record: CategoryRecord | null } | null>(null);

  const remove = async (record: CategoryRecord) => {
    if (await adminSave(message, "DELETE", `${paths.category}/${record.id}`, undefined, adminTableMessages.deleteFailed)) table.current?.reload();
  };

  const dragRow = useDragSort<CategoryRecord>(paths.categorySort, table, true);

  const columns: ColumnsType<CategoryRecord> = [
    { title: "", key: "drag", width: 40, render: () => <DragHandle /> },
    { title: "ID", dataIndex: "id", key: "id", width: 70, sorter: true },
    {
      title: "分类名称",
      dataIndex: "name",
      key: "name",
      width: 150,
      render: (name: string, r) => (
        <a href={r.url} target="_blank" rel="noreferrer">
          {name}
        </a>
      ),
    },
    { title: "别名", dataIndex: "diyname", key: "diyname", width: 140 },
    { title: "排序", dataIndex: "sort", key: "sort", width: 80, sorter: true },
    { title: "套曲数", dataIndex: "count", key: "count", width: 90, sorter: true, render: (n: number) => n },
    { title: "上级分类", dataIndex: "parent_name", key: "parent_id", width: 110, render: (name: string | null) => name ?? "—" },
    { title: "页面样式", dataIndex: "model_id", key: "model_id", width: 150, render: (id: number) => MODEL_TEXT.get(id) ?? id },
    {
      title: "状态",
      dataIndex: "enabled",
      key: "enabled",
      width: 80,
      render: (on: boolean) => (on ? <Tag color="green">启用</Tag> : <Tag>禁用</Tag>),
    },
    { title: "SEO 标题", dataIndex: "seo_title", key: "seo_title", width: 200, ellipsis: true },
    {
      title: "操作",
      key: "actions",
      width: 140,
      fixed: "right",
      render: (_, record) => (
        <Space>
          <Button type="link" size="small" onClick={() => setEditing({ record })}>
            编辑
          </Button>
          <DeleteConfirm title={`确定删除分类「${record.name}」吗？`} onConfirm={() => remove(record)} link />
        </Space>
      ),
    },
  ];

  return (
    <AdminPage title="套曲分类">
      <AdminTable<CategoryRecord>
        ref={table}
        api={paths.categoryIndex}
        columns={columns}
        searchPlaceholder="分类名称或ID"
        testId="category-table"
        tableProps={{ onRow: dragRow }}
        toolbar={() => (
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })}>
              添加分类
            </Button>
            <span className={DRAG_HINT.className}>{DRAG_HINT.text}</span>
          </>
        )}
      />
      <CategoryDialog
        open={editing !== null}
        record={editing?.record ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          table.current?.reload();
        }}
      />
    </AdminPage>
  );
}
