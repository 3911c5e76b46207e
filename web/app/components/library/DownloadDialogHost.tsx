import { LazyDialog } from "../LazyPart";
import { useDownloadDialog } from "./download-dialog-store";

// The dialog (antd Modal, Input, Alert) stays out of the page's bundle until a member opens it.
const loadDialog = () => import("./DownloadDialog");

/** Mount once on a page with download buttons; the dialog loads on first use. */
export function DownloadDialogHost() {
  const open = useDownloadDialog((s) => s.target !== null);
  const close = useDownloadDialog((s) => s.close);
  return <LazyDialog open={open} close={close} load={loadDialog} />;
}
