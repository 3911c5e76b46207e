import { useEffect, useLayoutEffect } from "react";

/**
 * A layout effect in the browser (after the DOM changed, before the browser paints); on the
 * server, where there is no layout and useLayoutEffect warns, a plain effect (which never runs there).
 */
export const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;
