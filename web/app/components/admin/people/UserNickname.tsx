import { Typography } from "antd";

/** Said on hover over a member's 昵称 cell when they never set one. */
export const NICKNAME_UNSET_HINT = "未设置昵称，网站上显示用户名";

/**
 * The 昵称 cell of the member table. A member without a nickname (every new sign-up) is shown on
 * the site by their username (nav, profile, session: `nickname || username`), so the cell shows
 * that name too, greyed with a hint, rather than "-" (issue 25).
 */
export function UserNickname({ nickname, username }: { nickname: string; username: string }) {
  if (nickname) return <>{nickname}</>;
  return (
    <Typography.Text type="secondary" title={NICKNAME_UNSET_HINT}>
      {username}
    </Typography.Text>
  );
}
