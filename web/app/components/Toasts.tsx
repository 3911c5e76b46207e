import { message } from "antd";
import { useEffect } from "react";
import { AntdScope } from "./AntdScope";
import type { SiteMessageContent } from "./feedback";

export type ToastCall =
  | { kind: "success" | "error" | "warning"; content: SiteMessageContent }
  /** Takes away the toast with the key `content`. */
  | { kind: "dismiss"; content: string };
export type ToastSink = (call: ToastCall) => void;

function Holder({ pending, attach }: { pending: ToastCall[]; attach: (sink: ToastSink | null) => void }) {
  const [api, holder] = message.useMessage();
  useEffect(() => {
    const sink: ToastSink = (call) => (call.kind === "dismiss" ? api.destroy(call.content) : void api[call.kind](call.content));
    attach(sink);
    for (const call of pending.splice(0)) sink(call);
    return () => attach(null);
  }, [api, pending, attach]);
  return holder;
}

/** antd's toasts, loaded with the first one (components/feedback.tsx). */
export default function Toasts(props: { pending: ToastCall[]; attach: (sink: ToastSink | null) => void }) {
  return (
    <AntdScope>
      <Holder {...props} />
    </AntdScope>
  );
}
