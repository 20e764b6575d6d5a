// Small display formats shared by transcript rows.

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const minutes = Math.floor(ms / 60_000)
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`
}

/** The one argument that says what a call does, for the card's header. */
export function callSummary(args: Record<string, unknown>): string {
  const pick = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : undefined)
  const text = pick('command') ?? pick('file_path') ?? pick('pattern') ?? pick('path') ?? pick('url') ?? pick('query') ?? ''
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length > 160 ? `${oneLine.slice(0, 157)}…` : oneLine
}
