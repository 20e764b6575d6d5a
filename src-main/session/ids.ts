// Session ids: sortable by creation time, safe as a file name. Every id that crosses the store's
// API is checked here, so an id can never name a path outside the sessions folder.
import { randomBytes } from 'node:crypto'

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/

/** `20250314-093015-123-9f2c41d0`: UTC date, time, milliseconds, 32 random bits. */
export function newSessionId(now: Date = new Date()): string {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0')
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1, 2)}${pad(now.getUTCDate(), 2)}`
  const time = `${pad(now.getUTCHours(), 2)}${pad(now.getUTCMinutes(), 2)}${pad(now.getUTCSeconds(), 2)}`
  return `${date}-${time}-${pad(now.getUTCMilliseconds(), 3)}-${randomBytes(4).toString('hex')}`
}

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value)
}

/** Throws unless `value` matches /^[A-Za-z0-9_-]{1,128}$/. */
export function assertSessionId(value: unknown): asserts value is string {
  if (!isSessionId(value)) {
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value
    throw new Error(`invalid session id ${shown}: expected 1-128 characters from [A-Za-z0-9_-]`)
  }
}
