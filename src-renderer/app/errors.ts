// How a failed host call reads in the UI: the host's own message (it names the field), and its
// stable code when the transport carried one (e.g. UNSUPPORTED for the native folder picker).

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message)
  return String(error)
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  const code = (error as { code: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/** The input field a refused call names (the host's zod check says which), when it named one. */
export function errorField(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('field' in error)) return undefined
  const field = (error as { field: unknown }).field
  return typeof field === 'string' ? field : undefined
}

/**
 * A refusal as a form shows it: led by the label of the field it names (`labels` maps the wire's
 * field names to the form's labels), with that field's key so the form can mark it invalid.
 */
export function fieldErrorOf(error: unknown, labels: Readonly<Record<string, string>>): { field: string | undefined; text: string } {
  const wire = errorField(error)
  const field = wire === undefined ? undefined : Object.keys(labels).find((key) => wire === key || wire.startsWith(`${key}.`) || wire.startsWith(`${key}[`))
  const text = errorText(error)
  return { field, text: field ? `${labels[field]}: ${text}` : text }
}
