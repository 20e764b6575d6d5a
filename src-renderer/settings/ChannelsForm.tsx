// The channels setting (plugins/channels): which channels may push messages into sessions, one
// Claude Code `--channels` entry per line (`plugin:<name>@<marketplace>`, `server:<name>`). A draft
// of the Channels section, saved with its Save bar; the host checks each entry and names a bad one.
import type { Settings } from '../../src-shared/contract/ipc'
import { fieldErrorOf } from '../app/errors'
import { useDraftPart } from './section-form'
import { useSettingsDraft } from './settings-draft'

const LABEL = 'Enabled channels'
const linesOf = (text: string): string[] => text.split('\n').map((line) => line.trim()).filter((line) => line !== '')

const channelsText = (settings: Settings): string => settings.channels.join('\n')

export function ChannelsForm() {
  const { host, saved, draft: text, setDraft: setText, keep, error, setError } = useSettingsDraft(channelsText)

  const dirty = saved !== null && text !== null && linesOf(saved).join('\n') !== linesOf(text).join('\n')
  const save = async (): Promise<boolean> => {
    if (text === null) return true
    setError(null)
    try {
      const next = await host.invoke('settings/set', { channels: linesOf(text) })
      keep(channelsText(next))
      return true
    } catch (e) {
      setError(fieldErrorOf(e, { channels: LABEL }))
      return false
    }
  }
  useDraftPart({ dirty, save, discard: () => saved !== null && setText(saved) })

  if (text === null) return error ? <p className="form-error" role="alert">{error.text}</p> : <p className="muted">Loading…</p>
  return (
    <div className="channels-form">
      <p className="muted small">
        A channel is an MCP server that pushes messages into your session (a chat bridge, a webhook, an alert). None is heard until you enable it here, as with Claude
        Code&apos;s <code>--channels</code>; <code>seam run --channels</code> adds some for one run. The plugin manager shows each plugin&apos;s channels with the entry that enables them.
      </p>
      <label className="field">
        <span className="field-label">{LABEL} (one per line: plugin:NAME@MARKETPLACE or server:NAME)</span>
        <textarea rows={4} value={text} spellCheck={false} aria-invalid={error?.field === 'channels' ? true : undefined} onChange={(e) => setText(e.target.value)} />
      </label>
      {error && <p className="form-error" role="alert">{error.text}</p>}
    </div>
  )
}
