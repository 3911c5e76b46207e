/** The q-quantile of a list (nearest rank: the smallest value with at least q of the list at or below it). */
export const quantile = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.ceil(q * list.length) - 1)]!;

/** "p50 / p95" of a list of ms, to a tenth. */
export const p50p95 = (list: number[]) => `${quantile(list, 0.5).toFixed(1)} / ${quantile(list, 0.95).toFixed(1)}`;
