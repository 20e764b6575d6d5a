// What the user is told about the loaded hooks: problems in the files, hooks skipped for trust or
// by `hooks.state`, hooks on events Seam does not fire, and `features.hooks = false`. Codex is
// silent about most of these; Seam says each one once per session (and again only when it
// changes, e.g. after an edit).
import { MAPPED_EVENTS } from './discovery'
import type { LoadedHooks } from './types'

export interface Notice {
  level: 'info' | 'warn'
  text: string
}

const LISTED = 10

export function noticesFor(loaded: LoadedHooks): Notice[] {
  const notices: Notice[] = loaded.warnings.map((warning) => ({ level: 'warn' as const, text: `Codex hooks: ${warning}` }))
  if (loaded.disabledBy !== undefined) {
    notices.push({ level: 'info', text: `Codex hooks are off: features.hooks = false in ${loaded.disabledBy}` })
    return notices
  }
  const untrusted = loaded.skipped.filter((skip) => skip.why === 'untrusted').map((skip) => skip.handler)
  if (untrusted.length > 0) {
    const listed = untrusted.slice(0, LISTED).map((h) => `${h.event} [${h.command}] (${h.sourceFile})`)
    const more = untrusted.length > LISTED ? `; and ${untrusted.length - LISTED} more` : ''
    notices.push({
      level: 'warn',
      text: `Codex hooks: this workspace is not trusted, so ${untrusted.length} hook(s) declared in its .codex folders did not run: ${listed.join('; ')}${more}. Trust the workspace to run them.`
    })
  }
  for (const skip of loaded.skipped) {
    if (skip.why !== 'unapproved') continue
    const h = skip.handler
    notices.push({
      level: 'warn',
      text: `Codex hooks: ${h.event} [${h.command}] (${h.sourceFile}) is new or changed since you trusted this workspace, so it did not run. Review and approve the change in the workspace trust dialog (Settings → Workspace; headless: --trust-workspace).`
    })
  }
  for (const skip of loaded.skipped) {
    if (skip.why !== 'disabled') continue
    const h = skip.handler
    notices.push({ level: 'warn', text: `Codex hooks: ${h.event} [${h.command}] (${h.sourceFile}) did not run: disabled by hooks.state."${h.key}" in the user config` })
  }
  for (const { event, files } of loaded.unmapped) {
    notices.push({
      level: 'info',
      text: `Codex hooks: ${event} hooks in ${files.join(', ')} are loaded but never run: Seam maps only ${[...MAPPED_EVENTS].join(', ')}`
    })
  }
  return notices
}
