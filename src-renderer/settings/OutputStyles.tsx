// Output style (plugins/output-styles): every style the window's workspace offers (Claude Code's
// built-in ones, the project's, the user's, enabled plugins'), each with where it comes from and
// what it does, the one in force checked. Choosing one saves `outputStyle` at once (the file is
// named) and it applies from the next turn.
import { useState } from 'react'
import type { OutputStylesViewData } from '../../src-shared/contract/output-styles'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useHostQuery } from '../app/use-host-query'

export function OutputStyles() {
  const host = useHost()
  const { data, error, setError, reload } = useHostQuery('outputStyles/list')
  const [saved, setSaved] = useState<OutputStylesViewData | null>(null)
  const [busy, setBusy] = useState(false)
  const shown = saved ?? data
  if (shown === null) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>
  if (!shown.available) return <p className="muted">Output styles are turned off (the output-styles entry of the plugin tree is disabled).</p>
  const choose = async (name: string) => {
    setBusy(true)
    setError(null)
    try {
      setSaved(await host.invoke('outputStyles/select', { name }))
    } catch (e) {
      // Shown again as it is on disk (a reload clears the last error, so the error is set after it).
      setSaved(null)
      await reload()
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="output-styles">
      <fieldset className="radio-group" disabled={busy}>
        <legend>Output style</legend>
        {shown.styles.map((style) => (
          <label key={`${style.source}/${style.name}`} className="radio output-style-row">
            <input type="radio" name="output-style" value={style.name} aria-label={style.name} checked={style.name === shown.current} onChange={() => void choose(style.name)} />
            <span>{style.name}</span> <span className="slash-source">({style.source})</span>
            {style.description && <span className="muted"> — {style.description}</span>}
            {style.file && <span className="muted small mono output-style-file">{style.file}</span>}
          </label>
        ))}
      </fieldset>
      <p className="muted small" data-testid="output-style-setting">
        {shown.setting ? `outputStyle "${shown.setting.value}" is set in ${shown.setting.file}.` : 'No outputStyle is set: Default is used.'} A choice here is saved to {shown.saveTo} and applies from the next turn.
      </p>
      {saved && <p className="muted small" role="status">Saved: {shown.current} is used from the next turn.</p>}
      {shown.problems.map((problem) => (
        <p key={problem} className="form-error small">{problem}</p>
      ))}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
