import { AUDIT_ACTION_LABELS, AUDIT_TARGET_NAMES, auditActionLabel } from "@contracts/audit-labels";
import type { AdminRow, AuditRow } from "@contracts/admin-accounts";
import { AutoComplete, DatePicker, Input, Select, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import type { Dayjs } from "dayjs";
import { useEffect, useMemo, useRef, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { ExportButton } from "../../components/admin/ExportButton";
import { AdminTable, type AdminTableHandle } from "../../components/admin/AdminTable";
import { AuditChange } from "../../components/admin/AuditChange";
import { formatAdminTime } from "../../components/admin/admin-time";
import { adminTablePage } from "../../lib/admin-api";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("审计日志");

const TARGET_OPTIONS = Object.entries(AUDIT_TARGET_NAMES).map(([value, label]) => ({ value, label: `${label} (${value})` }));
const ACTION_OPTIONS = Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value, label: `${label} (${value})` }));

/** 审计日志 (超级管理员 only: the admin layout shows an editor 需要超级管理员权限 instead): who changed what, when, from where, before and after; newest first. */
export default function AuditPage() {
  return (
    <AdminPage title="审计日志">
      <AuditScreen />
    </AdminPage>
  );
}

function AuditScreen() {
  const [adminId, setAdminId] = useState<number | undefined>();
  const [action, setAction] = useState("");
  const [targetType, setTargetType] = useState<string | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const table = useRef<AdminTableHandle>(null);
  const [admins, setAdmins] = useState<{ value: number; label: string }[]>([]);

  useEffect(() => {
    adminTablePage<AdminRow>("/api/pandaadmin/admins/index", { limit: 100, sort: "id", order: "asc" })
      .then((page) => setAdmins(page.rows.map((a) => ({ value: a.id, label: a.nickname ? `${a.nickname} (${a.username})` : a.username }))))
      .catch(() => setAdmins([]));
  }, []);

  // FastAdmin's filter/op: the admin's id, the action's text, the target type, a time range in China time.
  const { filter, op } = useMemo(() => {
    const f: Record<string, string> = {};
    const o: Record<string, string> = {};
    if (adminId !== undefined) f.admin_id = String(adminId);
    if (action.trim()) {
      f.action = action.trim();
      o.action = "LIKE";
    }
    if (targetType) f.target_type = targetType;
    if (range?.[0] || range?.[1]) {
      f.createtime = `${range[0] ? range[0].format("YYYY-MM-DD 00:00:00") : ""} - ${range[1] ? range[1].format("YYYY-MM-DD 23:59:59") : ""}`;
      o.createtime = "RANGE";
    }
    return { filter: f, op: o };
  }, [adminId, action, targetType, range]);

  const columns: ColumnsType<AuditRow> = [
    { title: "时间", dataIndex: "createtime", key: "createtime", sorter: true, width: 180, render: (t: number) => formatAdminTime(t) },
    {
      title: "管理员",
      key: "admin_id",
      render: (_, row) => (row.admin_id === null ? <Tag>已删除</Tag> : row.admin_nickname ? `${row.admin_nickname} (${row.admin_username})` : row.admin_username),
    },
    {
      title: "操作",
      dataIndex: "action",
      key: "action",
      render: (a: string) => (
        <span>
          {auditActionLabel(a)} <code style={{ color: "#8c8c8c", fontSize: 12 }}>{a}</code>
        </span>
      ),
    },
    {
      title: "对象",
      key: "target",
      render: (_, row) => (row.target_type ? `${AUDIT_TARGET_NAMES[row.target_type] ?? row.target_type}${row.target_id ? ` #${row.target_id}` : ""}` : "-"),
    },
    { title: "IP", dataIndex: "ip", key: "ip", width: 150 },
  ];

  const filters = (
    <>
      <Select allowClear placeholder="管理员" style={{ width: 160 }} options={admins} value={adminId} onChange={setAdminId} showSearch={{ optionFilterProp: "label" }} />
      <AutoComplete options={ACTION_OPTIONS} onSelect={(code: string) => setAction(code)} style={{ width: 220 }} popupMatchSelectWidth={260} showSearch={{ filterOption: (input, option) => option!.label.includes(input.trim()) }}>
        <Input.Search allowClear placeholder="操作，如 suite.update" onSearch={setAction} />
      </AutoComplete>
      <Select allowClear placeholder="对象类型" style={{ width: 150 }} options={TARGET_OPTIONS} value={targetType} onChange={setTargetType} />
      <DatePicker.RangePicker allowEmpty={[true, true]} value={range} onChange={(v) => setRange(v)} placeholder={["开始日期", "结束日期"]} />
    </>
  );

  return (
    <>
      <AdminTable<AuditRow>
        ref={table}
        api="/api/pandaadmin/audit/index"
        columns={columns}
        filter={filter}
        op={op}
        testId="audit-table"
        filters={filters}
        toolbar={() => <ExportButton table="audit" query={() => table.current?.query() ?? {}} />}
        tableProps={{ expandable: { expandedRowRender: (row) => <AuditChange row={row} />, rowExpandable: () => true } }}
      />
    </>
  );
}
