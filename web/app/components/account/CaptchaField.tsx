import { captchaField } from "@contracts/account-fields";
import { CAPTCHA_PATH } from "@contracts/auth-texts";
import { Form, Input } from "antd";
import { zodRule } from "../../lib/form-rules";
import styles from "./account-form.module.css";

/**
 * The captcha input with its image (spec: GET /captcha.html?t={timestamp}; click to refresh).
 * `stamp` names the image; the form changes it to load a new one (each image replaces the
 * browser's last, server side).
 */
export function CaptchaField({ formName, stamp, onRefresh }: { formName: string; stamp: number; onRefresh: () => void }) {
  return (
    // The label points at the input, whose id antd makes from the form's name and the field's.
    <Form.Item label="验证码" htmlFor={`${formName}_captcha`}>
      <div className={styles.captchaRow}>
        <Form.Item name="captcha" noStyle rules={[zodRule(captchaField)]}>
          <Input placeholder="请输入验证码" autoComplete="off" maxLength={10} size="large" className={styles.captchaInput} />
        </Form.Item>
        <button type="button" className={styles.captchaImage} onClick={onRefresh} title="看不清？点击换一张" aria-label="验证码图片，点击换一张">
          {stamp ? <img src={`${CAPTCHA_PATH}?t=${stamp}`} alt="验证码" width={120} height={40} /> : null}
        </button>
      </div>
    </Form.Item>
  );
}
