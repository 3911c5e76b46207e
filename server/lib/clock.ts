/**
 * The server's notion of "now", injectable so tests can move it (the play reports' 30 s rule,
 * e2e/player-media.test.ts moving the browser's and the server's clocks together).
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** A clock that runs with real time, plus whatever a test has advanced it by. */
export interface AdjustableClock {
  (): Date;
  advance(ms: number): void;
}

export function adjustableClock(): AdjustableClock {
  let offset = 0;
  const clock = (() => new Date(Date.now() + offset)) as AdjustableClock;
  clock.advance = (ms: number) => {
    offset += ms;
  };
  return clock;
}
