import { useEffect, useState } from "react";
import { LazyPart } from "../LazyPart";
import { useLoginDialog } from "./login-dialog-store";

// The dialog (Modal, Tabs, Form) stays out of the initial bundle until someone opens it.
const loadDialog = () => import("./LoginDialog");

export function LoginDialogHost() {
  const open = useLoginDialog((s) => s.open);
  const close = useLoginDialog((s) => s.close);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  if (!wanted) return null;
  return (
    <LazyPart
      load={loadDialog}
      props={{}}
      onFail={() => {
        close();
        setWanted(false);
      }}
    />
  );
}
