import { Component, Suspense, type ReactNode } from "react";
import { Link } from "react-router";
import { REQUEST_ID_ATTRIBUTE, useFailedRequestId } from "../../lib/request-id";
import {
  BACK_HOME_TEXT,
  describeError,
  ERROR_PAGE_FAILED_TEXT,
  GO_BACK_HOME_TEXT,
  REQUEST_ID_LABEL,
} from "./error-text";
import styles from "./error-page.module.css";

/**
 * The error page: status, message and a way home. A page with its own error texts passes
 * `describe`; status 0 (no answer from the server) shows no code. A server's 5xx page shows the
 * request's id (request-id.ts).
 */
export function ErrorPage({ error, describe = describeError }: { error: unknown; describe?: typeof describeError }) {
  const { status, message } = describe(error);
  const requestId = useFailedRequestId();
  return (
    <main className={styles.page} data-status={status}>
      {status ? <div className={styles.code}>{status}</div> : null}
      <p className={styles.message}>{message}</p>
      {status >= 500 && requestId ? (
        <p className={styles.requestId} {...{ [REQUEST_ID_ATTRIBUTE]: requestId }}>
          {`${REQUEST_ID_LABEL}${requestId}`}
        </p>
      ) : null}
      <Link className={styles.link} to="/">
        {BACK_HOME_TEXT}
      </Link>
    </main>
  );
}

/** What is left when the error page itself failed; a plain link so it works without the router. */
export function ErrorPageFailed() {
  return (
    <main className={styles.page} data-status="500">
      <p className={styles.message}>{ERROR_PAGE_FAILED_TEXT}</p>
      <a className={styles.link} href="/">
        {GO_BACK_HOME_TEXT}
      </a>
    </main>
  );
}

/** Catches a failure of the error page in the browser. */
export class ErrorPageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <ErrorPageFailed /> : this.props.children;
  }
}

/**
 * The error page guarded against its own failure. Error boundaries do not run during server
 * rendering, but Suspense does: React then sends the fallback and retries in the browser,
 * where ErrorPageBoundary catches the repeated failure.
 */
export function SafeErrorPage({
  error,
  render = ErrorPage,
}: {
  error: unknown;
  render?: (props: { error: unknown }) => ReactNode;
}) {
  const Page = render;
  return (
    <ErrorPageBoundary>
      <Suspense fallback={<ErrorPageFailed />}>
        <Page error={error} />
      </Suspense>
    </ErrorPageBoundary>
  );
}
