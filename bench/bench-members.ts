/** The password of serve.ts's `--members` (benchmember1…N): a module of its own, so that serve.ts's build takes no bench harness with it. */
export const BENCH_MEMBER_PASSWORD = "bench-password-2026";
