import type { MetaArgs } from "react-router";
import type { FavoriteEntry } from "@contracts/library";
import { libraryMessages as m } from "@contracts/library-texts";
import { Table, type TableProps } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { useSiteMessage } from "../../components/feedback";
import { PageHeading } from "../../components/layout/PageHeading";
import { DownloadDialogHost } from "../../components/library/DownloadDialogHost";
import { useDownloadDialog } from "../../components/library/download-dialog-store";
import { getFavoritesList, handleUnfavorite } from "../../components/library/library-api";
import styles from "../../components/library/library.module.css";
import { usePagedList } from "../../components/library/use-paged-list";
import { Icon } from "../../components/player/icons";
import { PlayAll } from "../../components/lists/PlayAll";
import { mimeTypeOf, type PlayerItem } from "../../components/player/player-item";
import { playerStore } from "../../components/player/player-store";
import { formatChinaDateTime } from "../../components/suite/format";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";

export const meta = ({ matches }: MetaArgs) => pageMeta("我的收藏", undefined, siteOf(matches));

/** A favourite as a playlist entry (spec section 3, Playlist item). */
const entryOf = (f: FavoriteEntry): PlayerItem => ({ id: f.id, name: f.name, artist: f.artist, cover: f.cover, url: f.palyurl, mimeType: mimeTypeOf(f.palyurl, f.playtype), page: f.url });
const play = (f: FavoriteEntry) => playerStore.getState().playItem(entryOf(f));

/** Spec section 2, Favourites: the name plays, unfavourite, download link; 暂无收藏 when empty. */
export default function Favorites() {
  const list = usePagedList(getFavoritesList, m.favoritesFailed);
  const message = useSiteMessage();
  const showDownload = useDownloadDialog((s) => s.show);
  const [removing, setRemoving] = useState<number | null>(null);

  const unfavorite = async (f: FavoriteEntry) => {
    setRemoving(f.id);
    try {
      const res = await handleUnfavorite(f.id);
      if (res.code !== 1) return void message.error(res.msg || m.unfavoriteFailed);
      void message.success(res.msg);
      list.reload();
    } catch {
      void message.error(m.unfavoriteFailed);
    } finally {
      setRemoving(null);
    }
  };

  const columns: TableProps<FavoriteEntry>["columns"] = [
    {
      title: "名称",
      key: "name",
      render: (_, f) => (
        <span>
          <button type="button" className={styles.nameButton} onClick={() => play(f)} title="播放">
            <Icon name="play" size={14} />
            {f.name}
          </button>{" "}
          {f.vipdown === "1" ? <span className={styles.vip}>VIP</span> : null}
        </span>
      ),
    },
    { title: "类型", key: "playtype", width: 80, responsive: ["sm"], render: (_, f) => (f.playtype === "mp4" ? "视频" : "音频") },
    {
      title: "下载",
      key: "download",
      width: 130,
      render: (_, f) =>
        f.downloadable ? (
          <button
            type="button"
            className={styles.linkButton}
            onClick={() => showDownload({ id: f.id, title: f.name, vipdown: f.vipdown, price: f.price })}
          >
            下载{f.vipdown === "0" && f.price > 0 ? <span className={styles.price}>（{f.price}币）</span> : null}
          </button>
        ) : (
          <span className={styles.muted}>暂无下载</span>
        ),
    },
    { title: "收藏时间", key: "createtime", width: 200, responsive: ["md"], render: (_, f) => formatChinaDateTime(f.createtime) },
    {
      title: "操作",
      key: "actions",
      width: 140,
      render: (_, f) => (
        <>
          <Link to={f.url} className={styles.linkButton}>
            详情
          </Link>
          <button type="button" className={styles.linkButton} disabled={removing === f.id} onClick={() => unfavorite(f)}>
            取消收藏
          </button>
        </>
      ),
    },
  ];

  const total = list.data?.total ?? 0;
  return (
    <>
      <PageHeading title="我的收藏" />
      <div className={styles.toolbar}>
        <PlayAll entries={(list.data?.list ?? []).filter((f) => f.palyurl).map(entryOf)} label="本页收藏" />
      </div>
      <Table<FavoriteEntry>
        rowKey="id"
        columns={columns}
        dataSource={list.error ? [] : (list.data?.list ?? [])}
        loading={list.loading}
        locale={{ emptyText: list.error ?? m.noFavorites }}
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
