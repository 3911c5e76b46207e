import { useEffect } from "react";
import type { MetaArgs } from "react-router";
import { useLoginDialog } from "../components/account/login-dialog-store";
import { LoginForm } from "../components/account/LoginForm";
import { PageHeading } from "../components/layout/PageHeading";
import { pageMeta } from "../lib/site";
import { siteOf } from "../lib/site-settings";
import styles from "./account-page.module.css";

export const meta = ({ matches }: MetaArgs) => pageMeta("登录", undefined, siteOf(matches));

export default function Login() {
  const showDialog = useLoginDialog((s) => s.show);
  // A login dialog opened on the way here (a button that found the session gone) would cover
  // this page's form: the page is the login.
  useEffect(() => {
    const dialog = useLoginDialog.getState();
    if (dialog.open && dialog.tab === "login") dialog.close();
  }, []);
  return (
    <div className={styles.card}>
      <PageHeading title="登录" />
      <LoginForm onRegister={() => showDialog("register")} />
    </div>
  );
}
