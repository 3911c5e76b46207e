/**
 * A dependency known only after something that needs it is built: the wiring's cycles (ADR
 * 0058), said where they are instead of hidden in a closure over a `const` declared further down.
 * Reading it before it is set throws, naming it; setting it twice throws too.
 */
export interface Late<T> {
  get(): T;
  /** Sets it once and returns the value, so the line that builds it reads as a declaration. */
  set(value: T): T;
}

export function late<T>(name: string): Late<T> {
  let value: { v: T } | undefined;
  return {
    get() {
      if (!value) throw new Error(`wiring: ${name} is used before it is built`);
      return value.v;
    },
    set(v) {
      if (value) throw new Error(`wiring: ${name} is built twice`);
      value = { v };
      return v;
    },
  };
}
