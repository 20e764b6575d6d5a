// Theme (plugins/themes): Seam's system, light and dark colours, and every Claude Code theme of the
// enabled plugins and `~/.claude/themes`, each with its source (`plugin@marketplace` or `user`).
// A choice applies at once, is remembered by this window's storage and restored at start
// (src-renderer/app/theme.ts). Colours a theme had moved for contrast, overrides it ignored and
// theme files skipped are listed, as is Claude Code's own `theme` preference.
import { useEffect, useState } from 'react'
import { useHost } from '../app/host-context'
import { errorText } from '../app/errors'
import { themeActions, useThemeStore } from '../app/theme'

const BUILTIN_LABELS: Record<string, string> = { system: 'System (follows the operating system)', light: 'Light', dark: 'Dark' }

export function ThemeChoice() {
  const host = useHost()
  const { view, choice, applied, notice, error } = useThemeStore()
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    void themeActions.refresh(host)
  }, [host])
  const choose = (id: string) => {
    try {
      setFailed(null)
      themeActions.choose(id)
    } catch (e) {
      setFailed(errorText(e))
    }
  }
  const current = view?.themes.find((t) => t.id === applied)
  return (
    <div className="theme-choice">
      {notice && <p className="banner warn" role="status" data-testid="theme-notice">{notice}</p>}
      <fieldset className="radio-group">
        <legend>Theme</legend>
        {Object.entries(BUILTIN_LABELS).map(([id, label]) => (
          <label key={id} className="radio">
            <input type="radio" name="theme" value={id} aria-label={label} checked={choice === id} onChange={() => choose(id)} />
            <span>{label}</span> <span className="slash-source">(Seam)</span>
          </label>
        ))}
        {view?.themes.map((theme) => (
          <label key={theme.id} className="radio">
            <input type="radio" name="theme" value={theme.id} aria-label={`${theme.name} (${theme.source})`} checked={choice === theme.id} onChange={() => choose(theme.id)} />
            <span>{theme.name}</span> <span className="slash-source">({theme.source})</span>
            <span className="muted small"> — {theme.base} base</span>
          </label>
        ))}
      </fieldset>
      {view && !view.available && <p className="muted">Plugin themes are turned off (the themes entry of the plugin tree is disabled).</p>}
      {view && view.available && view.themes.length === 0 && <p className="muted small">No plugin has a theme: install or enable a Claude Code plugin with a themes/ folder, or put a theme in ~/.claude/themes.</p>}
      <p className="muted small" data-testid="theme-claude-code">
        {view?.claudeCode ? `Claude Code's theme is "${view.claudeCode.value}" (${view.claudeCode.file}); Seam starts from it until you choose here.` : 'A choice here is kept by this window and applies at once.'}
      </p>
      {current && current.adjustments.length > 0 && (
        <details className="small">
          <summary>{current.adjustments.length} colour{current.adjustments.length === 1 ? '' : 's'} of {current.name} moved for readable text (WCAG AA)</summary>
          <ul>{current.adjustments.map((line) => <li key={line} className="mono">{line}</li>)}</ul>
        </details>
      )}
      {[...(current?.warnings ?? []), ...(view?.problems ?? [])].map((problem) => (
        <p key={problem} className="form-error small">{problem}</p>
      ))}
      {(error ?? failed) && <p className="form-error" role="alert">{error ?? failed}</p>}
    </div>
  )
}
