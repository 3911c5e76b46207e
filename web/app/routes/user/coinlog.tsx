import type { MetaArgs } from "react-router";
import type { CoinLogEntry } from "@contracts/economy";
import { economyMessages as m } from "@contracts/economy-texts";
import { suitePath } from "@contracts/paths";
import { Table, type TableProps } from "antd";
import { useEffect } from "react";
import { Link } from "react-router";
import { PurseCard } from "../../components/economy/PurseCard";
import styles from "../../components/economy/economy.module.css";
import { getCoinlog, useWallet } from "../../components/economy/wallet";
import { PageHeading } from "../../components/layout/PageHeading";
import { usePagedList } from "../../components/library/use-paged-list";
import { formatChinaDateTime } from "../../components/suite/format";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";

export const meta = ({ matches }: MetaArgs) => pageMeta("收支明细", undefined, siteOf(matches));

/** 收支明细 (ADR 0061): the purse, then every gain and spend of coins, newest first. */
export default function CoinLog() {
  const list = usePagedList(getCoinlog, m.coinlogFailed);
  const version = useWallet((s) => s.version);
  const { reload } = list;
  // A check-in or a VIP bought on this page adds a row.
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);

  const columns: TableProps<CoinLogEntry>["columns"] = [
    { title: "时间", key: "createtime", width: 200, render: (_, r) => formatChinaDateTime(r.createtime) },
    {
      title: "收支",
      key: "amount",
      width: 90,
      render: (_, r) => <span className={r.amount > 0 ? styles.gain : styles.spend}>{r.amount > 0 ? `+${r.amount}` : r.amount}</span>,
    },
    { title: "余额", key: "balance", width: 80, render: (_, r) => r.balance },
    {
      title: "说明",
      key: "note",
      render: (_, r) => (
        <>
          {r.item_id ? <Link to={suitePath(r.item_id)}>{r.note}</Link> : r.note}
          {r.note.startsWith(r.reason_text) ? null : <div className={styles.muted}>{r.reason_text}</div>}
        </>
      ),
    },
  ];

  const total = list.data?.total ?? 0;
  return (
    <>
      <PageHeading title="收支明细" />
      <PurseCard />
      <Table<CoinLogEntry>
        rowKey="id"
        columns={columns}
        dataSource={list.error ? [] : (list.data?.list ?? [])}
        loading={list.loading}
        locale={{ emptyText: list.error ?? m.noCoinlog }}
        pagination={
          total > list.pageSize
            ? { current: list.page, pageSize: list.pageSize, total, showSizeChanger: false, onChange: list.setPage, hideOnSinglePage: true }
            : false
        }
        scroll={{ x: 560 }}
      />
    </>
  );
}
