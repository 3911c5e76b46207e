import type { DownloadResult } from "@contracts/library";
import { LOCAL_SITE_CODE, libraryMessages as m } from "@contracts/library-texts";
import { Alert, Button, Input, Modal, Space } from "antd";
import { useEffect, useState } from "react";
import { copyText } from "../../lib/copy-text";
import { useSession } from "../../session/store";
import { useSiteMessage } from "../feedback";
import { useDownloadDialog } from "./download-dialog-store";
import { downloadTerms, HOW_TO_EARN, HOW_TO_GET_VIP } from "./download-terms";
import { getItemStates, handleDownload } from "./library-api";
import styles from "./library.module.css";
import { AntdScope } from "../AntdScope";
import { showPurse, useWallet } from "../economy/wallet";
import { Link } from "react-router";

type Phase = { step: "confirm"; error?: string } | { step: "working" } | { step: "done"; result: DownloadResult };

const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/** A read-only value with its copy button (network-drive link, extraction code). */
function CopyRow({ label, value }: { label: string; value: string }) {
  const message = useSiteMessage();
  const copy = async () => {
    if (await copyText(value)) void message.success(m.copyOk);
    else void message.warning(m.copyFailed);
  };
  return (
    <div className={styles.copyRow}>
      <span className={styles.copyLabel}>{label}</span>
      <Space.Compact className={styles.copyField}>
        <Input readOnly value={value} aria-label={label} onFocus={(e) => e.target.select()} />
        <Button type="primary" onClick={copy} aria-label={`复制${label}`}>
          复制
        </Button>
      </Space.Compact>
    </div>
  );
}

/**
 * The download dialog: first what it costs (price and balance, VIP, or free; a paid suite is
 * free to download again), then, after the member confirms, the network-drive link and its
 * extraction code with copy buttons, or the server's clear message.
 */
function DownloadDialogBody() {
  const { target, onDownloaded, close } = useDownloadDialog();
  const user = useSession((s) => s.user);
  const message = useSiteMessage();
  const [phase, setPhase] = useState<Phase>({ step: "confirm" });
  const [purchased, setPurchased] = useState<boolean | null>(null);
  const { checkedIn, refresh, checkIn, changed } = useWallet();
  const [checkingIn, setCheckingIn] = useState(false);

  useEffect(() => {
    setPhase({ step: "confirm" });
    setPurchased(null);
    // The balance this page loaded with may be old (a check-in elsewhere, an admin's grant).
    if (target) void refresh();
    if (!target || target.vipdown === "1" || target.price === 0) return;
    let cancelled = false;
    getItemStates([target.id])
      .then((res) => !cancelled && setPurchased(res.code === 1 && !!res.data[0]?.purchased))
      .catch(() => !cancelled && setPurchased(false));
    return () => {
      cancelled = true;
    };
  }, [target]);

  if (!target) return <Modal open={false} footer={null} />;
  const external = target.website && target.website.code !== LOCAL_SITE_CODE ? target.website : null;

  const confirm = async () => {
    setPhase({ step: "working" });
    try {
      const res = await handleDownload(target.id);
      if (res.code !== 1) {
        void message.error(res.msg || m.downloadFailed);
        return setPhase({ step: "confirm", error: res.msg || m.downloadFailed });
      }
      showPurse(res.data.coins);
      if (res.data.charged > 0) changed();
      setPhase({ step: "done", result: res.data });
      onDownloaded?.(res.data);
    } catch {
      void message.error(m.downloadFailed);
      setPhase({ step: "confirm", error: m.downloadFailed });
    }
  };

  const onCheckin = async () => {
    setCheckingIn(true);
    const r = await checkIn();
    setCheckingIn(false);
    if (r.ok) void message.success(r.msg);
    else void message.warning(r.msg);
  };

  const terms = downloadTerms(target, { coins: user?.coins ?? 0, vipUntil: user?.vipUntil ?? null, purchased, now: Date.now() });

  const done = phase.step === "done" ? phase.result : null;
  const footer = done
    ? [
        <Button key="close" type="primary" onClick={close}>
          完成
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={close}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={phase.step === "working"} disabled={!terms.canConfirm} onClick={confirm}>
          {phase.step === "working" ? "下载中..." : terms.confirmLabel}
        </Button>,
      ];

  return (
    <Modal open title={`下载：${target.title}`} onCancel={close} footer={footer} width={480} centered destroyOnHidden>
      {done ? (
        <div className={styles.dialogBody} data-download-result>
          <CopyRow label="网盘地址" value={done.weburl} />
          <CopyRow label="提取码" value={done.password || "无"} />
          <p className={styles.note}>
            {done.charged > 0 ? `已扣除${done.charged}币，当前余额${done.coins}币` : `本次下载未扣币，当前余额${done.coins}币`}
          </p>
          {isWebAddress(done.weburl) ? (
            <a href={done.weburl} target="_blank" rel="noopener noreferrer nofollow" className={styles.driveLink}>
              打开网盘下载
            </a>
          ) : null}
        </div>
      ) : (
        <div className={styles.dialogBody}>
          <p className={terms.short || terms.needsVip ? `${styles.terms} ${styles.short}` : styles.terms} data-download-terms role={terms.short || terms.needsVip ? "alert" : undefined}>
            {terms.text}
          </p>
          {terms.needsVip ? (
            <div className={styles.earn} data-download-vip>
              <span className={styles.note}>{HOW_TO_GET_VIP}</span>
              <Link to="/user/coinlog" onClick={close} className={styles.driveLink}>
                开通VIP
              </Link>
            </div>
          ) : null}
          {terms.short ? (
            <div className={styles.earn} data-download-earn>
              <span className={styles.note}>{HOW_TO_EARN}</span>
              <Button size="small" onClick={onCheckin} loading={checkingIn} disabled={checkedIn === true}>
                {checkedIn ? "今日已签到" : "签到领币"}
              </Button>
              <Link to="/user/coinlog" onClick={close} className={styles.driveLink}>
                收支明细
              </Link>
            </div>
          ) : null}
          {external ? <p className={styles.note}>该套曲来自{external.name}，下载在来源站点的网盘进行，本站只提供地址。</p> : null}
          {phase.step === "confirm" && phase.error ? <Alert type="error" showIcon title={phase.error} /> : null}
        </div>
      )}
    </Modal>
  );
}

/** In antd's theme (components/AntdScope.tsx): this part is loaded on its own. */
export default function DownloadDialog() {
  return (
    <AntdScope>
      <DownloadDialogBody />
    </AntdScope>
  );
}
