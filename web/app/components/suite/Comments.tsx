import { type FormEvent, useState } from "react";
import { useSiteMessage } from "../feedback";
import styles from "./suite.module.css";

/** Comments area: empty state, a 4-row textarea and submit (posting needs a login). */
export function Comments({ onSubmitNeedsLogin }: { onSubmitNeedsLogin: () => void }) {
  const [text, setText] = useState("");
  const message = useSiteMessage();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return void message.warning("请输入评论内容");
    onSubmitNeedsLogin();
  };
  return (
    <section className={styles.panel} aria-labelledby="comments-title">
      <h2 id="comments-title" className={styles.panelTitle}>
        评论
      </h2>
      <p className={styles.empty}>暂无评论，快来抢沙发吧~</p>
      <form onSubmit={submit} className={styles.commentForm}>
        <textarea
          rows={4}
          maxLength={500}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="说点什么吧..."
          aria-label="评论内容"
          className={styles.textarea}
        />
        <button type="submit" className={styles.primary}>
          发表评论
        </button>
      </form>
    </section>
  );
}
