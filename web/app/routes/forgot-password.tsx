import { PageHeading } from "../components/layout/PageHeading";
import type { RouteHandle } from "../guards/types";
import { pageMeta } from "../lib/site";
import styles from "./account-page.module.css";

export const handle: RouteHandle = { middleware: ["guest"] };

export const meta = () => pageMeta("忘记密码");

/** Two steps (email, then code and new password) come with the accounts issue. */
export default function ForgotPassword() {
  return (
    <div className={styles.card}>
      <PageHeading title="忘记密码">请输入注册时使用的邮箱，我们将发送验证码</PageHeading>
    </div>
  );
}
