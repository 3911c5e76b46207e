import { Button, Form, Input } from "antd";
import styles from "./account-form.module.css";

/** Register form with the spec's fields; the accounts issue wires it (and 注册中...). */
export function RegisterForm() {
  return (
    <Form layout="vertical" requiredMark={false} name="register" className={styles.form}>
      <Form.Item label="用户名" name="username">
        <Input placeholder="请输入用户名" autoComplete="username" />
      </Form.Item>
      <Form.Item label="邮箱" name="email">
        <Input placeholder="请输入邮箱" autoComplete="email" />
      </Form.Item>
      <Form.Item label="密码" name="password">
        <Input.Password placeholder="请输入密码" autoComplete="new-password" />
      </Form.Item>
      <Form.Item label="确认密码" name="confirm">
        <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
      </Form.Item>
      <Form.Item label="验证码" name="captcha">
        <Input placeholder="请输入验证码" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large">
        注册
      </Button>
    </Form>
  );
}
