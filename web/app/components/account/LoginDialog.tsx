import { Modal, Tabs } from "antd";
import { LoginForm } from "./LoginForm";
import { useLoginDialog, type LoginTab } from "./login-dialog-store";
import { RegisterForm } from "./RegisterForm";

/** Spec section 2: opened from the navbar, 400px wide, login and register tabs. */
export default function LoginDialog() {
  const { open, tab, setTab, close } = useLoginDialog();
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
            children: <LoginForm onRegister={() => setTab("register")} onNavigate={close} />,
          },
          { key: "register", label: "注册", children: <RegisterForm /> },
        ]}
      />
    </Modal>
  );
}
