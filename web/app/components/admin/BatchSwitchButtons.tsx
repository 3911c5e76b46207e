import { adminTableMessages } from "@contracts/admin-table-texts";
import { App, Button } from "antd";
import { type RefObject, useState } from "react";
import { adminCall } from "../../lib/admin-api";
import { type AdminTableHandle, batchLabel } from "./AdminTable";

/**
 * 批量启用 / 批量停用 of a short admin list's selection (来源管理, 来源插件): one call for every
 * selected row, all or none (ADR 0078); the server's message is shown, the selection cleared on
 * success, and the list reloaded either way.
 */
export function BatchSwitchButtons({ ids, path, field, table, onSwitched }: {
  ids: string[];
  /** The switch endpoint: it takes `{ [field]: ids, enabled }`. */
  path: string;
  field: "codes" | "platforms";
  table: RefObject<AdminTableHandle | null>;
  onSwitched: () => unknown;
}) {
  const { message } = App.useApp();
  const [switching, setSwitching] = useState(false);

  async function switchAll(enabled: boolean) {
    setSwitching(true);
    const res = await adminCall("POST", path, { [field]: ids, enabled }).catch(() => null);
    setSwitching(false);
    if (res?.code === 1) {
      void message.success(res.msg);
      table.current?.clearSelection();
    } else void message.error(res?.msg || adminTableMessages.saveFailed);
    await onSwitched();
  }

  return (
    <>
      <Button disabled={ids.length === 0} loading={switching} onClick={() => void switchAll(true)}>
        {batchLabel("批量启用", ids.length)}
      </Button>
      <Button disabled={ids.length === 0} loading={switching} onClick={() => void switchAll(false)}>
        {batchLabel("批量停用", ids.length)}
      </Button>
    </>
  );
}
