import type { Comment } from "@contracts/library";
import { COMMENT_MAX_CHARS, COMMENT_PAGE_SIZE, libraryMessages as m } from "@contracts/library-texts";
import { type FormEvent, useEffect, useState } from "react";
import { useSession } from "../../session/store";
import { useLoginDialog } from "../account/login-dialog-store";
import { useSiteMessage } from "../feedback";
import { getComments, postComment } from "../library/library-api";
import { Pager } from "../lists/Pager";
import { formatChinaDateTime } from "./format";
import styles from "./suite.module.css";

const charCount = (s: string) => [...s].length;
const POST_FAILED = "评论失败，请稍后重试";

/**
 * Comments (spec section 2): everyone reads them, newest first, 10 a page; members post with
 * the 4-row textarea (guests get the login dialog). They are read after hydration, and shown as
 * text: React escapes whatever a comment contains.
 */
export function Comments({ itemId }: { itemId: number }) {
  const user = useSession((s) => s.user);
  const showLogin = useLoginDialog((s) => s.show);
  const message = useSiteMessage();
  const [text, setText] = useState("");
  const [page, setPage] = useState(1);
  const [list, setList] = useState<Comment[] | null>(null);
  const [total, setTotal] = useState(0);
  const [failed, setFailed] = useState(false);
  const [posting, setPosting] = useState(false);

  useEffect(() => {
    let cancelled = false;
    setFailed(false);
    getComments(itemId, page)
      .then((res) => {
        if (cancelled) return;
        if (res.code !== 1) return setFailed(true);
        setList(res.data.list);
        setTotal(res.data.total);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [itemId, page]);

  const length = charCount(text.trim());
  // A soft limit (ADR 0060): typing may go over; the count turns red, the message shows, posting is refused.
  const tooLong = length > COMMENT_MAX_CHARS;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!length) return void message.warning(m.commentRequired);
    if (tooLong) return void message.warning(m.commentTooLong);
    if (!user) return showLogin("login");
    setPosting(true);
    try {
      const res = await postComment(itemId, text);
      if (res.code !== 1) return void message.error(res.msg || POST_FAILED);
      void message.success(res.msg);
      setText("");
      setTotal((n) => n + 1);
      // Newest first: the new comment opens page 1.
      if (page === 1) setList((l) => [res.data.comment, ...(l ?? [])].slice(0, COMMENT_PAGE_SIZE));
      else setPage(1);
    } catch {
      void message.error(POST_FAILED);
    } finally {
      setPosting(false);
    }
  };

  return (
    <section className={styles.panel} aria-labelledby="comments-title">
      <h2 id="comments-title" className={styles.panelTitle}>
        评论 {total > 0 ? <span className={styles.muted}>共 {total} 条</span> : null}
      </h2>
      {failed ? <p className={styles.empty}>{m.commentsFailed}</p> : null}
      {!failed && list !== null && list.length === 0 ? <p className={styles.empty}>暂无评论，快来抢沙发吧~</p> : null}
      {list && list.length > 0 ? (
        <ol className={styles.commentList} aria-label="评论列表">
          {list.map((c) => (
            <li key={c.id} className={styles.comment} data-comment-id={c.id}>
              <img className={styles.commentAvatar} src={c.user.avatar} alt="" width={36} height={36} loading="lazy" />
              <div className={styles.commentBody}>
                <div className={styles.commentHead}>
                  <span className={styles.commentName}>{c.user.nickname}</span>
                  <time dateTime={new Date(c.createtime * 1000).toISOString()}>{formatChinaDateTime(c.createtime)}</time>
                </div>
                <p className={styles.commentText}>{c.content}</p>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      <Pager page={page} total={total} pageSize={COMMENT_PAGE_SIZE} label="评论分页" onPage={setPage} />
      <form onSubmit={submit} className={styles.commentForm}>
        <textarea
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={user ? "说点什么吧..." : "登录后参与评论"}
          aria-label="评论内容"
          aria-invalid={tooLong || undefined}
          aria-describedby={tooLong ? "comment-error" : undefined}
          className={styles.textarea}
        />
        {tooLong ? (
          <p id="comment-error" className={styles.fieldError} role="alert">
            {m.commentTooLong}
          </p>
        ) : null}
        <div className={styles.formFoot}>
          <span className={tooLong ? `${styles.charCount} ${styles.charCountOver}` : styles.charCount}>
            {length}/{COMMENT_MAX_CHARS}
          </span>
          <button type="submit" className={styles.primary} disabled={posting}>
            {posting ? "发表中..." : "发表评论"}
          </button>
        </div>
      </form>
    </section>
  );
}
