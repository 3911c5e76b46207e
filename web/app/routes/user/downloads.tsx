import type { MetaArgs } from "react-router";
import type { DownloadEntry } from "@contracts/library";
import { libraryMessages as m } from "@contracts/library-texts";
import { suitePath } from "@contracts/paths";
import { Table, type TableProps } from "antd";
import { Link } from "react-router";
import { PageHeading } from "../../components/layout/PageHeading";
import { DownloadDialogHost } from "../../components/library/DownloadDialogHost";
import { useDownloadDialog } from "../../components/library/download-dialog-store";
import { getDownloadsList } from "../../components/library/library-api";
import styles from "../../components/library/library.module.css";
import { usePagedList } from "../../components/library/use-paged-list";
import { formatChinaDateTime } from "../../components/suite/format";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";

export const meta = ({ matches }: MetaArgs) => pageMeta("下载记录", undefined, siteOf(matches));

/**
 * Spec section 2, Downloads: the title links to /sutie/{b_id}.html, the time (China time,
 * YYYY年MM月DD日 HH:mm:ss), re-download (free once paid; the dialog says so and shows the link).
 */
export default function Downloads() {
  const list = usePagedList(getDownloadsList, m.downloadsFailed);
  const showDownload = useDownloadDialog((s) => s.show);

  const columns: TableProps<DownloadEntry>["columns"] = [
    {
      title: "标题",
      key: "title",
      render: (_, d) => (
        <Link to={suitePath(d.b_id)} className={styles.nameButton}>
          {d.title}
        </Link>
      ),
    },
    { title: "下载时间", key: "createtime", width: 210, responsive: ["md"], render: (_, d) => formatChinaDateTime(d.createtime) },
    { title: "花费", key: "coins", width: 90, responsive: ["sm"], render: (_, d) => (d.coins_spent > 0 ? `${d.coins_spent}币` : <span className={styles.muted}>免费</span>) },
    {
      title: "操作",
      key: "again",
      width: 110,
      render: (_, d) => (
        <button
          type="button"
          className={styles.linkButton}
          onClick={() => showDownload({ id: d.b_id, title: d.title, vipdown: d.vipdown, price: d.price }, () => list.reload())}
        >
          重新下载
        </button>
      ),
    },
  ];

  const total = list.data?.total ?? 0;
  return (
    <>
      <PageHeading title="下载记录" />
      <Table<DownloadEntry>
        rowKey="id"
        columns={columns}
        dataSource={list.error ? [] : (list.data?.list ?? [])}
        loading={list.loading}
        locale={{ emptyText: list.error ?? m.noDownloads }}
        pagination={
          // Spec section 9: pagination only when the total exceeds the page size.
          total > list.pageSize
            ? { current: list.page, pageSize: list.pageSize, total, showSizeChanger: false, onChange: list.setPage, hideOnSinglePage: true }
            : false
        }
      />
      <DownloadDialogHost />
    </>
  );
}
