// The loaded hooks per working directory, kept current without a restart: every lookup compares
// the files' stat signatures (so an edit applies at the very next event), and a watch on the
// files reloads eagerly so new problems reach the log even before the next event.
import { statSync } from 'node:fs'
import type { Logger } from '@seam/sdk'
import { watchPatchFiles, type StopWatching } from '@seam/sdk/node'
import { hookFiles, loadHooks, repositoryRoot, type DiscoveryInput } from './discovery'
import type { LoadedHooks } from './types'

interface Entry {
  signature: string
  loaded: LoadedHooks
  stopWatching?: StopWatching
}

export class HookCatalog {
  private readonly entries = new Map<string, Entry>()
  private disposed = false

  constructor(
    private readonly logger: Logger,
    private readonly options: { watch: boolean }
  ) {}

  get(input: DiscoveryInput): LoadedHooks {
    const key = JSON.stringify([input.codexHome, input.workspace, input.cwd, input.trusted, input.defaultTimeoutSec])
    const signature = signatureOf(input)
    const entry = this.entries.get(key)
    if (entry && entry.signature === signature) return entry.loaded
    const loaded = loadHooks(input)
    const previous = new Set(entry?.loaded.warnings ?? [])
    for (const warning of loaded.warnings) if (!previous.has(warning)) this.logger.warn(`Codex hooks: ${warning}`)
    const next: Entry = { signature, loaded, stopWatching: entry?.stopWatching }
    if (entry && entry.loaded.files.join('\n') !== loaded.files.join('\n')) {
      entry.stopWatching?.()
      next.stopWatching = undefined
    }
    if (this.options.watch && !this.disposed && !next.stopWatching) {
      next.stopWatching = watchPatchFiles(loaded.files, () => {
        if (!this.disposed) this.get(input)
      })
    }
    this.entries.set(key, next)
    return loaded
  }

  dispose(): void {
    this.disposed = true
    for (const entry of this.entries.values()) entry.stopWatching?.()
    this.entries.clear()
  }
}

/** Changes whenever a hook file appears, disappears or is written, or the repository root moves. */
function signatureOf(input: DiscoveryInput): string {
  const parts = [repositoryRoot(input.cwd) ?? '']
  for (const ref of hookFiles(input.codexHome, input.workspace, input.cwd)) {
    try {
      const info = statSync(ref.file)
      parts.push(`${ref.file}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`)
    } catch {
      parts.push(`${ref.file}:-`)
    }
  }
  return parts.join('\n')
}
