/**
 * A message for the next back-office page to show: logging out unmounts the admin layout (and
 * its message holder) and the guards may redirect again on the way, so 退出成功 waits here for
 * the login page.
 */
let pending: string | null = null;

export function setAdminFlash(message: string) {
  pending = message;
}

export function takeAdminFlash(): string | null {
  const message = pending;
  pending = null;
  return message;
}
