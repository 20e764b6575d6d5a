// One way to turn a zod failure into a message that names the field, used at every boundary.
import type { z } from 'zod'

export function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)'
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join('')
}

/** `where: field.path: message; other.field: message` */
export function formatZodError(where: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`)
  const more = error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : ''
  return `${where}: ${parts.join('; ')}${more}`
}

/** Thrown where input from outside the process fails its schema. `field` is the first failing path. */
export class ValidationError extends Error {
  readonly field: string
  constructor(where: string, error: z.ZodError) {
    super(formatZodError(where, error))
    this.name = 'ValidationError'
    this.field = formatIssuePath(error.issues[0]?.path ?? [])
  }
}

export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value)
  if (!result.success) throw new ValidationError(where, result.error)
  return result.data
}
