import type { Paged } from "@contracts/library";
import { LIBRARY_PAGE_SIZE } from "@contracts/library-texts";
import { useCallback, useEffect, useState } from "react";
import type { Envelope } from "../../lib/api";

/**
 * One page of a member's list (favourites, downloads): loads on mount and on page change;
 * a failure shows `failText` (the spec's 获取…失败，请稍后重试) or the server's message.
 */
export function usePagedList<T>(fetchPage: (page: number, size: number) => Promise<Envelope<Paged<T>>>, failText: string) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Paged<T> | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    fetchPage(page, LIBRARY_PAGE_SIZE)
      .then((res) => {
        if (cancelled) return;
        if (res.code !== 1) return setError(res.msg || failText);
        // A page emptied by removals: show the one before it.
        if (res.data.list.length === 0 && page > 1) return setPage(page - 1);
        setError(null);
        setData(res.data);
      })
      .catch(() => !cancelled && setError(failText))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [fetchPage, failText, page, version]);

  return {
    page,
    setPage,
    pageSize: LIBRARY_PAGE_SIZE,
    data,
    loading,
    error,
    reload: useCallback(() => setVersion((v) => v + 1), []),
  };
}
