import { afterEach, describe, expect, it } from "vitest";
import { useLoginDialog } from "./login-dialog-store";

const at = (pathname: string) => Object.assign(globalThis, { window: { location: { pathname } } });

describe("the login dialog's store", () => {
  afterEach(() => {
    useLoginDialog.setState({ open: false, tab: "login" });
    Reflect.deleteProperty(globalThis, "window");
  });

  it("opens on the login tab anywhere but /login, whose page is the login form", () => {
    at("/sutie/1.html");
    useLoginDialog.getState().show();
    expect(useLoginDialog.getState()).toMatchObject({ open: true, tab: "login" });
    useLoginDialog.getState().close();

    at("/login");
    useLoginDialog.getState().show("login");
    expect(useLoginDialog.getState().open).toBe(false);
  });

  it("opens its register tab on /login (the page's 注册 link)", () => {
    at("/login");
    useLoginDialog.getState().show("register");
    expect(useLoginDialog.getState()).toMatchObject({ open: true, tab: "register" });
  });
});
