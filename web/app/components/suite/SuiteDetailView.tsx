import { LOCAL_SITE_CODE } from "@contracts/library-texts";
import type { MusicInfo } from "@contracts/suite";
import { Link } from "react-router";
import { PriceBalance } from "../economy/PriceBalance";
import { DownloadDialogHost } from "../library/DownloadDialogHost";
import { useSuitePlayback } from "../player/use-suite-playback";
import { Comments } from "./Comments";
import { FileTree } from "./FileTree";
import { RelatedLists } from "./RelatedLists";
import { formatChinaDate, formatCount, formatDuration } from "./format";
import styles from "./suite.module.css";
import { useSuiteLibrary } from "./use-suite-library";
import { useViewCount } from "./use-view-count";

/** Suite detail (spec section 2): header with counts and actions, progress, file tree, comments. */
export function SuiteDetailView({ info }: { info: MusicInfo }) {
  const media = useSuitePlayback(info);
  const library = useSuiteLibrary(info);
  const views = useViewCount(info.id, info.views);
  const total = media.duration;
  const external = info.website.code !== LOCAL_SITE_CODE;

  return (
    <article className={styles.page}>
      <nav className={styles.breadcrumb} aria-label="面包屑">
        <Link to="/">首页</Link>
        <span aria-hidden>/</span>
        {info.channel.name ? <Link to={info.channel.url}>{info.channel.name}</Link> : null}
        {info.channel.name ? <span aria-hidden>/</span> : null}
        <span className={styles.current}>{info.title}</span>
      </nav>

      <section className={styles.header}>
        <img className={styles.cover} src={info.image} alt={info.title} width={220} height={220} />
        <div className={styles.meta}>
          <h1 className={styles.title}>
            {info.title}
            {info.vipdown === "1" ? <span className={styles.vip}>VIP</span> : null}
          </h1>
          <p className={styles.facts}>
            <span>歌手：{info.artist}</span>
            <span>来源：{info.website.name}</span>
            {info.duration ? <span>时长：{formatDuration(info.duration)}</span> : null}
            <span>{info.vipdown === "1" ? "VIP免费下载" : info.price > 0 ? `下载：${info.price}币` : "免费下载"}</span>
            <PriceBalance price={info.price} vipdown={info.vipdown} />
          </p>
          <p className={styles.counts}>
            <span data-count="views">浏览 {formatCount(views)}</span>
            <span data-count="likes">点赞 {formatCount(library.counts.likes)}</span>
            <span data-count="favorites">收藏 {formatCount(library.counts.favorites)}</span>
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.primary} onClick={media.toggle}>
              {media.playing ? "暂停" : "播放"}
            </button>
            <button type="button" className={styles.secondary} onClick={library.download}>
              下载
            </button>
            <button
              type="button"
              className={library.favorite ? `${styles.secondary} ${styles.active}` : styles.secondary}
              onClick={library.toggleFavorite}
              aria-pressed={library.favorite}
              disabled={library.busy === "favorite"}
            >
              {library.favorite ? "已收藏" : "收藏"}
            </button>
            <button
              type="button"
              className={library.liked ? `${styles.secondary} ${styles.active}` : styles.secondary}
              onClick={library.toggleLike}
              aria-pressed={library.liked}
              disabled={library.busy === "like"}
            >
              {library.liked ? "已推荐" : "推荐"}
            </button>
          </div>
          {external ? (
            <p className={styles.sourceNote}>
              本站只提供搜索与试听，该套曲来自{info.website.name}，下载在来源站点进行。
            </p>
          ) : null}
          <div className={styles.progressRow}>
            <span>{formatDuration(media.time)}</span>
            <input
              className={styles.progress}
              type="range"
              min={0}
              max={Math.max(1, Math.floor(total))}
              value={Math.floor(media.time)}
              onChange={(e) => media.seek(Number(e.target.value))}
              aria-label="播放进度"
            />
            <span>{formatDuration(total)}</span>
          </div>
          {media.trackCount && media.trackNumber ? (
            <p className={styles.nowPlaying} aria-live="polite">
              正在播放：第 {media.trackNumber} 首 / 共 {media.trackCount} 首
            </p>
          ) : null}
          {media.resumeAt !== null ? (
            <p className={styles.resume}>
              上次听到 {formatDuration(media.resumeAt)}
              <button type="button" className={styles.linkButton} onClick={media.resume}>
                继续播放
              </button>
              <button type="button" className={styles.linkButton} onClick={() => media.seek(0)}>
                从头播放
              </button>
            </p>
          ) : null}
          {media.error ? <p className={styles.error}>{media.error}</p> : null}
        </div>
      </section>

      <section className={styles.panel}>
        <h2 className={styles.panelTitle}>
          文件列表 <span className={styles.muted}>音频文件：{info.audioFiles}</span>
          <span className={styles.updated}>更新时间：{formatChinaDate(info.update_time)}</span>
        </h2>
        <FileTree nodes={info.djlist} onSeek={media.seek} activeStart={media.activeStart} />
      </section>

      <RelatedLists id={info.id} />
      <Comments itemId={info.id} />
      <DownloadDialogHost />
    </article>
  );
}
