import { lazy, Suspense, useEffect, useState } from "react";
import { importWithReload } from "../../lib/chunk-reload";
import { useLoginDialog } from "./login-dialog-store";

// The dialog (Modal, Tabs, Form) stays out of the initial bundle until someone opens it.
const LoginDialog = lazy(importWithReload(() => import("./LoginDialog")));

export function LoginDialogHost() {
  const open = useLoginDialog((s) => s.open);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LoginDialog />
    </Suspense>
  );
}
