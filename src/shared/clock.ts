/** Injected wherever "now" matters, so tests can move time (token expiry, windows, stats). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
