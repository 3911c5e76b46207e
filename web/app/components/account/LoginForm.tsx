import { authMessages, fieldMessages } from "@contracts/auth-texts";
import type { LoginResult } from "@contracts/auth-schemas";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { userCall } from "../../lib/user-api";
import { useSiteMessage } from "../feedback";
import styles from "./account-form.module.css";
import { captchaShown, useLoginCaptcha } from "./login-captcha-store";
import { LoginCaptcha, PasswordInput, TextField } from "./plain-fields";
import { useFinishLogin } from "./use-finish-login";

interface LoginValues {
  account: string;
  password: string;
  captcha: string;
}
type Errors = Partial<Record<keyof LoginValues, string>>;

/** A failed login answers `{ iscaptcha }`; a successful one the token and the user too. */
type LoginAnswer = LoginResult | { iscaptcha: number } | null;

const EMPTY: LoginValues = { account: "", password: "", captcha: "" };

/**
 * The fields' rules are the server's zod fields (contracts/), loaded when the form is first
 * used rather than with the page (zod is ~19 KB gzip). If they cannot be loaded the server's
 * own answer still says what is wrong.
 */
const loadRules = () =>
  Promise.all([import("@contracts/auth"), import("@contracts/account-fields")]).then(([auth, fields]) => ({
    account: auth.loginAccountField,
    password: fields.loginPasswordField,
    captcha: fields.captchaField,
  }));

async function validate(values: LoginValues, withCaptcha: boolean): Promise<Errors> {
  const rules = await loadRules().catch(() => null);
  if (!rules) return {};
  const errors: Errors = {};
  for (const key of ["account", "password", "captcha"] as const) {
    if (key === "captcha" && !withCaptcha) continue;
    const result = rules[key].safeParse(values[key]);
    if (!result.success) errors[key] = result.error.issues[0]?.message ?? fieldMessages.accountRequired;
  }
  return errors;
}

/**
 * The login form of the login page and the dialog's login tab (spec sections 2, 4, 7): account
 * (username or email) and password; the captcha appears once the server's `iscaptcha` reaches
 * 5, and every failed login loads a new image. The button reads 登录中... while waiting.
 * Plain form elements, not antd's Form: the login page is a public page whose first load has
 * no antd (ADR 0036); its look follows the theme's inputs and primary button.
 */
export function LoginForm({
  onRegister,
  onNavigate,
  onSuccess,
  active = true,
  prefill,
}: {
  /** Opens the register form (a link under the fields). */
  onRegister?: () => void;
  /** Called when a link leaves the form (the dialog closes). */
  onNavigate?: () => void;
  /** Called once logged in (the dialog closes). */
  onSuccess?: () => void;
  /** Whether the form is on screen (the dialog's tab): a shown captcha is reloaded when it comes back. */
  active?: boolean;
  /** An account to fill in (the username just registered). */
  prefill?: { account: string };
}) {
  const id = useId();
  const [values, setValues] = useState<LoginValues>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [loading, setLoading] = useState(false);
  const [stamp, setStamp] = useState(0);
  const failures = useLoginCaptcha((s) => s.failures);
  const setFailures = useLoginCaptcha((s) => s.setFailures);
  const needCaptcha = captchaShown(failures);
  const message = useSiteMessage();
  const finish = useFinishLogin(onSuccess);

  const refreshCaptcha = () => {
    setStamp(Date.now());
    setValues((v) => ({ ...v, captcha: "" }));
  };

  // A new image whenever the captcha (re)appears: shown for the first time, or its tab is back.
  useEffect(() => {
    if (active && needCaptcha) refreshCaptcha();
  }, [active, needCaptcha]);

  // What an earlier try said goes when the form leaves the screen (another tab, the dialog
  // closed): coming back, the form starts clean rather than showing stale complaints.
  useEffect(() => {
    if (active) return;
    setErrors({});
    message.dismiss("login");
  }, [active, message]);

  // A username just registered: filled in, the old complaints gone.
  useEffect(() => {
    if (!prefill) return;
    setValues((v) => ({ ...v, account: prefill.account, password: "" }));
    setErrors({});
  }, [prefill]);

  /** A field shown in error is checked again as it is corrected. */
  const change = (key: keyof LoginValues) => (value: string) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (errors[key]) void validate(next, needCaptcha).then((found) => setErrors((e) => ({ ...e, [key]: found[key] })));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    const form = event.currentTarget;
    const found = await validate(values, needCaptcha);
    setErrors(found);
    const firstWrong = (["account", "password", "captcha"] as const).find((key) => found[key]);
    if (firstWrong) {
      form.querySelector<HTMLInputElement>(`[id="${id}${firstWrong}"]`)?.focus();
      return;
    }
    setLoading(true);
    try {
      const body = { account: values.account, password: values.password, ...(needCaptcha ? { captcha: values.captcha } : {}) };
      const answer = await userCall<LoginAnswer>("POST", "/api/user/login", body, { anonymous: true });
      if (answer.code === 1 && answer.data && "token" in answer.data) {
        setFailures(0);
        await finish(answer.data, answer.msg);
        return;
      }
      if (answer.data && typeof answer.data.iscaptcha === "number") setFailures(answer.data.iscaptcha);
      // One toast for repeated failures (the same key replaces it), not a stack over the form.
      message.error({ key: "login", content: answer.msg || authMessages.loginFailed });
      // A captcha shown before this try gets a new image; one this answer makes appear gets
      // its first from the effect above (loading two would void the first one's answer).
      if (needCaptcha) refreshCaptcha();
    } catch {
      message.error({ key: "login", content: authMessages.loginUnavailable });
      if (needCaptcha) refreshCaptcha();
    } finally {
      setLoading(false);
    }
  }

  return (
    <form
      name="login"
      className={styles.form}
      noValidate
      onSubmit={(e) => void submit(e)}
      // The rules start loading as soon as the visitor starts on the form.
      onFocus={() => void loadRules().catch(() => undefined)}
    >
      <TextField
        id={`${id}account`}
        label="用户名/邮箱"
        value={values.account}
        error={errors.account}
        onChange={change("account")}
        placeholder="请输入用户名/邮箱"
        autoComplete="username"
        maxLength={254}
      />
      <PasswordInput
        id={`${id}password`}
        label="密码"
        value={values.password}
        error={errors.password}
        onChange={change("password")}
        placeholder="请输入密码"
        autoComplete="current-password"
        maxLength={128}
      />
      {needCaptcha ? (
        <LoginCaptcha id={`${id}captcha`} stamp={stamp} value={values.captcha} error={errors.captcha} onChange={change("captcha")} onRefresh={refreshCaptcha} />
      ) : null}
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
      <button type="submit" className={styles.submit} disabled={loading} aria-busy={loading}>
        {loading ? "登录中..." : "登录"}
      </button>
    </form>
  );
}
