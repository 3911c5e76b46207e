/**
 * Taps before the app has hydrated (ADR 0063). Until React owns the page its buttons do
 * nothing, and the scripts come after the first paint (entry.client.tsx), so a quick tap was
 * lost. This inline script, first in <head>, catches clicks on buttons and on `data-early-tap`
 * elements in the capture phase, marks them pending (`data-tap-pending`), and keeps them;
 * `replayEarlyTaps()` clicks them again once React has hydrated (the same DOM nodes: hydration
 * keeps them). A `data-early-tap="login"` tap also sets `<html data-early="login">`, which shows
 * the server-rendered login frame at once; a `data-early-close` tap hides it again and drops
 * the queued opens. Should the app not hydrate within 10 s (its scripts failed), the script
 * steps aside and clicks the kept elements once more: a link then goes where it points (the
 * login trigger is a link to /login), a form's button submits, as with no script at all.
 * Plain ES5 in a string: it runs before any bundle, and its SHA-256 is in the CSP of kept pages.
 */
export const EARLY_TAPS_SCRIPT = `(function(d,h){var q=[],off=false,timer;window.__earlyTaps=q;
function mark(el,on){if(on)el.setAttribute("data-tap-pending","");else el.removeAttribute("data-tap-pending")}
function giveUp(){if(h.getAttribute("data-hydrated"))return;off=true;h.removeAttribute("data-early");q.splice(0).forEach(function(el){mark(el,0);el.click()})}
d.addEventListener("click",function(e){if(off||h.getAttribute("data-hydrated")||e.button||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey)return;
var t=e.target,el=t&&t.closest&&t.closest("button,[data-early-tap],[data-early-close]");if(!el||el.disabled)return;
e.preventDefault();e.stopImmediatePropagation();
if(el.hasAttribute("data-early-close")){h.removeAttribute("data-early");for(var i=q.length-1;i>=0;i--)if(q[i].hasAttribute("data-early-tap")){mark(q[i],0);q.splice(i,1)}return}
if(q.indexOf(el)<0)q.push(el);mark(el,1);var k=el.getAttribute("data-early-tap");if(k)h.setAttribute("data-early",k);
clearTimeout(timer);timer=setTimeout(giveUp,10000)},true)})(document,document.documentElement);`;

declare global {
  interface Window {
    __earlyTaps?: Element[];
  }
}

/** Clicks again what was tapped before hydration; called once React has hydrated the document. */
export function replayEarlyTaps(doc: Document = document) {
  const queue = doc.defaultView?.__earlyTaps;
  if (!queue) return;
  for (const el of queue.splice(0)) {
    el.removeAttribute("data-tap-pending");
    // Hydration keeps the server's nodes; if a mismatch made React draw them anew, the same key finds the new one.
    const key = el.getAttribute("data-early-tap");
    const target = el.isConnected ? el : key ? doc.querySelector(`[data-early-tap="${key}"]`) : null;
    (target as HTMLElement | null)?.click();
  }
}
