import { adminTableMessages } from "@contracts/admin-table-texts";
import { App } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { adminTablePage } from "../../lib/admin-api";

/** One page's query in ADMIN-API.md's conventions (`filter`/`op` already JSON strings, `params` too). */
export interface TablePageQuery {
  params: string;
  search: string;
  filter?: string;
  op?: string;
  sort?: string;
  order?: "asc" | "desc";
  page: number;
  pageSize: number;
}

/**
 * The page a server-paged table shows (`{total, rows}` of its table API), loaded again when the
 * query or `version` changes; a later request's answer wins over an earlier one's. Without an
 * `api` (a table whose screen hands it its rows) it loads nothing.
 */
export function useTablePage<Row>(api: string | undefined, q: TablePageQuery, version: number) {
  const { message } = App.useApp();
  const [answer, setAnswer] = useState<{ rows: Row[]; total: number; capped: boolean }>({ rows: [], total: 0, capped: false });
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const { params, search, filter, op, sort, order, page, pageSize } = q;

  const load = useCallback(async () => {
    if (!api) return;
    const call = ++latest.current;
    setLoading(true);
    try {
      const got = await adminTablePage<Row>(api, {
        ...(JSON.parse(params) as Record<string, string | number | undefined>),
        search: search || undefined,
        filter,
        op,
        sort,
        order,
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      if (call !== latest.current) return; // a later request answers instead
      setAnswer({ rows: got.rows, total: got.total, capped: got.capped });
    } catch (err) {
      if (call === latest.current) void message.error(err instanceof Error && err.message && !/^HTTP|network|fetch/iu.test(err.message) ? err.message : adminTableMessages.loadFailed);
    } finally {
      if (call === latest.current) setLoading(false);
    }
  }, [api, params, search, filter, op, sort, order, page, pageSize, message]);

  useEffect(() => {
    void load();
  }, [load, version]);

  return { ...answer, loading };
}
