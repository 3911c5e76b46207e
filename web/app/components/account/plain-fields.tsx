import { CAPTCHA_PATH } from "@contracts/auth-texts";
import { useState, type InputHTMLAttributes } from "react";
import { Icon } from "../player/icons";
import styles from "./account-form.module.css";

interface FieldProps {
  id: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}
type InputProps = Pick<InputHTMLAttributes<HTMLInputElement>, "placeholder" | "autoComplete" | "maxLength">;

/** A label, its input and the field's message (read out with the input: aria-describedby). */
function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children}
      <div id={`${id}-error`} className={styles.error} aria-live="polite">
        {error}
      </div>
    </div>
  );
}

const inputProps = ({ id, value, error, onChange }: FieldProps) => ({
  id,
  value,
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value),
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `${id}-error` : undefined,
});

/** A text input styled like the theme's antd inputs (the public pages load no antd first). */
export function TextField(props: FieldProps & InputProps) {
  const { id, label, error, placeholder, autoComplete, maxLength } = props;
  return (
    <Field id={id} label={label} error={error}>
      <input
        {...inputProps(props)}
        type="text"
        className={error ? `${styles.input} ${styles.invalid}` : styles.input}
        placeholder={placeholder}
        autoComplete={autoComplete}
        maxLength={maxLength}
      />
    </Field>
  );
}

/** A password input with a show/hide button (named for screen readers, a 28 px target). */
export function PasswordInput(props: FieldProps & InputProps) {
  const { id, label, error, placeholder, autoComplete, maxLength } = props;
  const [shown, setShown] = useState(false);
  return (
    <Field id={id} label={label} error={error}>
      <span className={error ? `${styles.affix} ${styles.invalid}` : styles.affix}>
        <input
          {...inputProps(props)}
          type={shown ? "text" : "password"}
          className={styles.bare}
          placeholder={placeholder}
          autoComplete={autoComplete}
          maxLength={maxLength}
        />
        <button type="button" className={styles.eye} aria-label={shown ? "隐藏密码" : "显示密码"} aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          <Icon name={shown ? "eye" : "eyeOff"} size={16} />
        </button>
      </span>
    </Field>
  );
}

/**
 * The login captcha: its input and image (spec: GET /captcha.html?t={timestamp}; click to
 * refresh). `stamp` names the image; the form changes it to load a new one.
 */
export function LoginCaptcha(props: Omit<FieldProps, "label"> & { stamp: number; onRefresh: () => void }) {
  const { id, error, stamp, onRefresh } = props;
  return (
    <Field id={id} label="验证码" error={error}>
      <div className={styles.captchaRow}>
        <input
          {...inputProps({ ...props, label: "验证码" })}
          type="text"
          className={`${styles.input} ${styles.captchaInput}${error ? ` ${styles.invalid}` : ""}`}
          placeholder="请输入验证码"
          autoComplete="off"
          maxLength={10}
        />
        <button type="button" className={styles.captchaImage} onClick={onRefresh} title="看不清？点击换一张" aria-label="验证码图片，点击换一张">
          {stamp ? <img src={`${CAPTCHA_PATH}?t=${stamp}`} alt="验证码" width={120} height={40} /> : null}
        </button>
      </div>
    </Field>
  );
}
