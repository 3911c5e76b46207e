import { Button, Form, Input } from "antd";
import { Link } from "react-router";
import styles from "./account-form.module.css";

/**
 * Login form with the spec's fields (section 2). The accounts issue wires submission,
 * the captcha (shown once data.iscaptcha >= 5) and the 登录中... loading label.
 */
export function LoginForm({
  onRegister,
  onNavigate,
}: {
  onRegister?: () => void;
  onNavigate?: () => void;
}) {
  return (
    <Form layout="vertical" requiredMark={false} name="login" className={styles.form}>
      <Form.Item label="用户名/邮箱" name="account">
        <Input placeholder="请输入用户名/邮箱" autoComplete="username" />
      </Form.Item>
      <Form.Item label="密码" name="password">
        <Input.Password placeholder="请输入密码" autoComplete="current-password" />
      </Form.Item>
      <div className={styles.links}>
        <Link to="/forgot-password" onClick={onNavigate}>
          忘记密码？
        </Link>
        {onRegister ? (
          <button type="button" className={styles.linkButton} onClick={onRegister}>
            注册账号
          </button>
        ) : null}
      </div>
      <Button type="primary" htmlType="submit" block size="large">
        登录
      </Button>
    </Form>
  );
}
