import { EXPORT_TABLES, type ExportTable, exportPath, exportTexts } from "@contracts/admin-export";
import { App, Button } from "antd";
import { useState } from "react";
import { adminDownload } from "../../lib/admin-api";

/**
 * 导出CSV: every row of the table as it is filtered, searched and sorted now (`query`, the table's
 * list query without paging), downloaded as a CSV file Excel opens with its Chinese intact.
 */
export function ExportButton({ table, query }: { table: ExportTable; query: () => Record<string, string | number | undefined> }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await adminDownload(exportPath(table), query(), `${EXPORT_TABLES[table].file}.csv`);
      void message.success(exportTexts.done);
    } catch (err) {
      void message.error(err instanceof Error && err.message && !/^HTTP|network|fetch|signed/iu.test(err.message) ? err.message : exportTexts.failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button onClick={() => void run()} loading={busy} data-testid={`export-${table}`}>
      {exportTexts.button}
    </Button>
  );
}
