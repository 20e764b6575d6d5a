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
