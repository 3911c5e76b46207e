import { LockOutlined, SafetyOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Checkbox, Form, Input } from "antd";
import { Logo } from "../../components/nav/Logo";
import { GuardGate } from "../../guards/GuardGate";
import type { RouteHandle } from "../../guards/types";
import { pageMeta } from "../../lib/site";
import styles from "./login.module.css";

/** Guests only: a logged-in admin goes on to /panda/ (spec sections 2 and 6). */
export const handle: RouteHandle = { middleware: ["adminGuest"] };

export const meta = () => pageMeta("后台登录");

/** Admin login, without the admin side menu; the admin issue wires submission and captcha. */
export default function AdminLogin() {
  return (
    <div className={styles.page}>
      <GuardGate>
        <div className={styles.card}>
          <div className={styles.brand}>
            <Logo size={36} />
            <h1 className={styles.title}>后台登录</h1>
          </div>
          <Form layout="vertical" requiredMark={false} name="admin-login" size="large">
            <Form.Item label="账号" name="username">
              <Input prefix={<UserOutlined />} placeholder="请输入账号" autoComplete="username" />
            </Form.Item>
            <Form.Item label="密码" name="password">
              <Input.Password
                prefix={<LockOutlined />}
                placeholder="请输入密码"
                autoComplete="current-password"
              />
            </Form.Item>
            <Form.Item label="验证码" name="captcha">
              <Input prefix={<SafetyOutlined />} placeholder="请输入验证码" />
            </Form.Item>
            <Form.Item name="remember" valuePropName="checked">
              <Checkbox>记住账号</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" block>
              登录
            </Button>
          </Form>
        </div>
      </GuardGate>
    </div>
  );
}
