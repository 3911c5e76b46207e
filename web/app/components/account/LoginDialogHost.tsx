import { LazyDialog } from "../LazyPart";
import { useLoginDialog } from "./login-dialog-store";

// The dialog (Modal, Tabs, Form) stays out of the initial bundle until someone opens it.
const loadDialog = () => import("./LoginDialog");

export function LoginDialogHost() {
  const open = useLoginDialog((s) => s.open);
  const close = useLoginDialog((s) => s.close);
  return <LazyDialog open={open} close={close} load={loadDialog} />;
}
