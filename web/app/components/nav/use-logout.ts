import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { TOKEN_KEY } from "../../session/keys";
import { useSession } from "../../session/store";
import { useSiteMessage } from "../feedback";

const isUserPage = (pathname: string) => pathname.startsWith("/user/");

/**
 * Logout from the navbar. Spec: logging out on a /user/ page goes to /. The session is cleared
 * only once the new page is on screen; clearing it earlier would let the /user/ page's auth
 * guard see a guest and send them to /login instead.
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const message = useSiteMessage();
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!pending || isUserPage(pathname)) return;
    setPending(false);
    window.localStorage.removeItem(TOKEN_KEY);
    useSession.getState().setUser(null);
    void message.success("退出成功");
  }, [pending, pathname, message]);

  return () => {
    const token = window.localStorage.getItem(TOKEN_KEY);
    // The accounts issue gives this call its meaning; the local logout does not wait for it.
    if (token) {
      void fetch("/api/user/logout", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    }
    setPending(true);
    if (isUserPage(pathname)) void navigate("/");
  };
}
