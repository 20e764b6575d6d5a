/**
 * How much of a session log one reply carries: at most `maxEvents` events (a caller may ask for
 * fewer) and, past the first event, about `maxBytes` of JSON, so opening a long session is several
 * small messages (each its own task in the window) rather than one large one. Receiving a message
 * costs the window about 50 ms of CPU per MB (Chromium's message handling and JSON.parse), in one
 * task that a loaded machine stretches 2-3x or more in wall time: a 250 kB page is about 12 ms.
 */
export const SESSION_PAGE = { maxEvents: 1_000, maxBytes: 250_000 } as const
