import { LazyDialog } from "../LazyPart";
import { LoginFrame } from "./LoginFrame";
import { useLoginDialog } from "./login-dialog-store";

// The dialog (Modal, Tabs, Form) stays out of the initial bundle until someone opens it.
const loadDialog = () => import("./LoginDialog");

/** Its frame shows at once, before the app hydrates (early) and while the dialog's code loads. */
export function LoginDialogHost() {
  const open = useLoginDialog((s) => s.open);
  const close = useLoginDialog((s) => s.close);
  return (
    <>
      <LoginFrame early onClose={() => document.documentElement.removeAttribute("data-early")} />
      <LazyDialog open={open} close={close} load={loadDialog} fallback={open ? <LoginFrame onClose={close} /> : null} />
    </>
  );
}
