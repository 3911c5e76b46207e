import { type FormEvent, Fragment, useState } from "react";
import { Link, useNavigate } from "react-router";
import { jumpTarget, pageCount, pagerCells } from "./pager";
import styles from "./pager.module.css";

interface PagerProps {
  page: number;
  total: number;
  pageSize: number;
  /** The navigation's accessible name (分页, 搜索结果分页 …). */
  label: string;
  /** A page's address: the pager is real links and its jump box a GET form (works without JS). */
  href?: (page: number) => string;
  /** Or a page is state (search results, comments): buttons. */
  onPage?: (page: number) => void;
}

/**
 * Pages the way DJ sites do (ADR 0062): 首页 上一页 1 … 4 5 [6] 7 8 … 70 下一页 尾页, then
 * 跳转到 [ ] 页 确定. Shown only when the total exceeds the page size (spec section 9).
 */
export function Pager({ page, total, pageSize, label, href, onPage }: PagerProps) {
  const last = pageCount(total, pageSize);
  if (total <= pageSize) return null;
  const go = (p: number, text: string, kind: "edge" | "step" | "number", rel?: string) => {
    const current = p === page;
    const cls = [styles.cell, kind === "edge" ? styles.edge : "", current && kind === "number" ? styles.current : ""].filter(Boolean).join(" ");
    const disabled = current && kind !== "number";
    if (disabled) return <span className={`${cls} ${styles.disabled}`} aria-disabled="true">{text}</span>;
    if (current) return <span className={cls} aria-current="page">{text}</span>;
    const name = kind === "number" ? `第 ${p} 页` : undefined;
    return href ? (
      <Link to={href(p)} className={cls} rel={rel} aria-label={name}>
        {text}
      </Link>
    ) : (
      <button type="button" className={cls} onClick={() => onPage?.(p)} aria-label={name}>
        {text}
      </button>
    );
  };
  return (
    <nav className={styles.pager} aria-label={label} data-pager>
      <div className={styles.cells}>
        {go(1, "首页", "edge")}
        {go(Math.max(1, page - 1), "上一页", "step", "prev")}
        {pagerCells(page, last).map((cell, i) =>
          cell === "gap" ? (
            <span key={`gap${i}`} className={styles.gap} aria-hidden>
              …
            </span>
          ) : (
            <Fragment key={cell}>{go(cell, String(cell), "number")}</Fragment>
          ),
        )}
        {go(Math.min(last, page + 1), "下一页", "step", "next")}
        {go(last, "尾页", "edge")}
      </div>
      <JumpBox page={page} last={last} href={href} onPage={onPage} />
    </nav>
  );
}

/**
 * 跳转到 [ ] 页 确定. With addresses it is a GET form to the list's own address carrying its
 * other parameters, so it works before hydration and without JS; once hydrated it navigates
 * in the app, clamped to the pages.
 */
function JumpBox({ page, last, href, onPage }: { page: number; last: number; href?: (p: number) => string; onPage?: (p: number) => void }) {
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const base = href ? new URL(href(1), "http://x") : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = jumpTarget(text, last);
    if (target === null || target === page) return;
    setText("");
    if (href) void navigate(href(target));
    else onPage?.(target);
  };
  return (
    <form className={styles.jump} method="get" action={base?.pathname} onSubmit={submit}>
      <span className={styles.status}>
        第 {page} / {last} 页
      </span>
      {base ? [...base.searchParams].map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />) : null}
      <label className={styles.jumpLabel}>
        跳转到
        <input
          className={styles.jumpInput}
          name="page"
          type="number"
          inputMode="numeric"
          min={1}
          max={last}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-label="跳转到第几页"
        />
        页
      </label>
      <button type="submit" className={styles.jumpButton}>
        确定
      </button>
    </form>
  );
}
