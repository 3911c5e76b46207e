import { Modal, Tabs } from "antd";
import { useEffect, useState } from "react";
import { LoginForm } from "./LoginForm";
import { useLoginDialog, type LoginTab } from "./login-dialog-store";
import { RegisterForm } from "./RegisterForm";
import { AntdScope } from "../AntdScope";

/** Spec section 2: opened from the navbar, 400px wide, login and register tabs. */
function LoginDialogBody() {
  const { open, tab, setTab, close } = useLoginDialog();
  // The username just registered, for the login tab (a new object each time, so it is filled again).
  const [prefill, setPrefill] = useState<{ account: string }>();
  // Here at last: the frame shown before the app hydrated (LoginFrame) is not needed any more.
  useEffect(() => document.documentElement.removeAttribute("data-early"), []);
  return (
    <Modal open={open} width={400} footer={null} onCancel={close} centered>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as LoginTab)}
        centered
        items={[
          {
            key: "login",
            label: "登录",
            children: (
              <LoginForm
                onRegister={() => setTab("register")}
                onNavigate={close}
                onSuccess={close}
                active={open && tab === "login"}
                prefill={prefill}
              />
            ),
          },
          {
            key: "register",
            label: "注册",
            children: (
              <RegisterForm
                active={open && tab === "register"}
                onRegistered={(username) => {
                  setPrefill({ account: username });
                  setTab("login");
                }}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}

/** In antd's theme (components/AntdScope.tsx): this part is loaded on its own. */
export default function LoginDialog() {
  return (
    <AntdScope>
      <LoginDialogBody />
    </AntdScope>
  );
}
