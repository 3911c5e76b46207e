import type { MetaArgs } from "react-router";
import { Button } from "antd";
import { useState } from "react";
import { PageHeading } from "../../components/layout/PageHeading";
import { AccountSummary } from "../../components/profile/AccountSummary";
import { AvatarUpload } from "../../components/profile/AvatarUpload";
import { ChangeEmailDialog } from "../../components/profile/ChangeEmailDialog";
import { ChangePasswordDialog } from "../../components/profile/ChangePasswordDialog";
import { ProfileForm } from "../../components/profile/ProfileForm";
import styles from "../../components/profile/profile.module.css";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";
import { useSession } from "../../session/store";

export const meta = ({ matches }: MetaArgs) => pageMeta("个人资料", undefined, siteOf(matches));

/** Profile (spec section 2): avatar, account facts, nickname and bio, password and email dialogs. */
export default function Profile() {
  const user = useSession((s) => s.user);
  const [dialog, setDialog] = useState<"password" | "email" | null>(null);
  // The user layout's auth guard has loaded the member before this renders.
  if (!user) return null;
  return (
    <>
      <PageHeading title="个人资料" />
      <div className={styles.header}>
        <AvatarUpload />
        <AccountSummary user={user} />
      </div>
      <ProfileForm key={user.id} user={user} onChangeEmail={() => setDialog("email")} />
      <section className={styles.section}>
        <h2 className={styles.sectionTitle}>账号安全</h2>
        <div className={styles.securityRow}>
          <span>定期修改密码可以保护账号安全</span>
          <Button onClick={() => setDialog("password")}>修改密码</Button>
        </div>
      </section>
      <ChangePasswordDialog open={dialog === "password"} onClose={() => setDialog(null)} />
      <ChangeEmailDialog user={user} open={dialog === "email"} onClose={() => setDialog(null)} />
    </>
  );
}
