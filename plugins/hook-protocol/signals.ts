// One signal for a hook run that must end when any of its owners ends (the turn is cancelled,
// the bridge is disposed, the session closes).

/** Aborts when any given signal does; `undefined` when none is given. */
export function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined)
  if (present.length <= 1) return present[0]
  return AbortSignal.any(present)
}
