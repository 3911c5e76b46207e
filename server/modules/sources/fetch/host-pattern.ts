/**
 * Host names or patterns a source's media may come from (registry `mediaHosts`). A site moves
 * its audio between hosts of its own domain (清风DJ has served it from `tspc.vvvdj.com` and
 * `t.h.vvvdj.com`), so a media host may be a pattern: `*.vvvdj.com` is any host under
 * vvvdj.com, at any depth, but neither `vvvdj.com` itself nor a look-alike such as
 * `evilvvvdj.com`. Anything else is an exact name. A pattern must name a domain of at least two
 * labels (`*.com` matches nothing). Matching a name never skips the address guard: whatever it
 * resolves to is still checked at connect time.
 */

/** Lower case, no IPv6 brackets, no trailing dot of a fully qualified name. */
export function normaliseHost(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/gu, "").replace(/\.$/u, "");
}

export function hostMatcher(patterns: readonly string[]): (host: string) => boolean {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const pattern of patterns.map(normaliseHost)) {
    if (!pattern.startsWith("*.")) {
      exact.add(pattern);
      continue;
    }
    const domain = pattern.slice(2);
    const labels = domain.split(".");
    if (labels.length >= 2 && labels.every((label) => /^[a-z0-9-]+$/u.test(label))) suffixes.push(`.${domain}`);
  }
  return (host) => {
    const name = normaliseHost(host);
    return exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix) && name.length > suffix.length);
  };
}
