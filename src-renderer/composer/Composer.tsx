// The message box. Enter sends, Shift+Enter is a new line. While a turn runs a message is queued
// (it steers the running turn, or opens the next one, per chat/send's reply) and shows as queued
// in the transcript until the log records it. Stop cancels the running turn. A text starting
// with `/` opens the slash command menu (SlashMenu.tsx); commands run on the host (chat/send).
// Shift+Tab steps the approval mode (ModeSwitch.tsx), ↑ in an empty box recalls the last prompt.
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { sessionsActions } from '../sessions/sessions-store'
import { sessionActions, useSessionStore } from '../transcript/session-store'
import { composerActions, useComposerStore } from './composer-store'
import { Attachments } from './Attachments'
import { attachFiles, filesOf } from './attachments'
import { useMentionPicker } from './MentionPicker'
import { useSlashMenu } from './SlashMenu'
import { ModeSwitch } from './ModeSwitch'
import { nextMode, setApprovalMode } from './approval-mode'
import { useAppStore } from '../app/app-store'
import { lastPrompt } from './last-prompt'
import { tasksPanelActions } from '../tasks/tasks-panel-store'

export function Composer() {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const running = useSessionStore((state) => state.agent?.running ?? false)
  const text = useComposerStore((state) => state.draft)
  const images = useComposerStore((state) => state.images)
  const focusRequest = useComposerStore((state) => state.focusRequest)
  const setText = (next: string | ((current: string) => string)) =>
    composerActions.setDraft(typeof next === 'function' ? next(useComposerStore.getState().draft) : next)
  const [error, setError] = useState<string | null>(null)
  const box = useRef<HTMLTextAreaElement>(null)
  const mention = useMentionPicker({ box, text, setText, sessionId })
  useEffect(() => {
    if (focusRequest > 0) box.current?.focus()
  }, [focusRequest])
  // On first show (after setup, on start) the message box takes the focus unless something has it.
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) box.current?.focus()
  }, [])

  const send = async (typed?: string) => {
    const content = typed ?? text
    const attached = images
    if (!content.trim() && attached.length === 0) return
    setText('')
    composerActions.setImages([])
    setError(null)
    let id = sessionId
    try {
      id ??= await sessionsActions.create(host)
    } catch (e) {
      setText(content)
      composerActions.setImages(attached)
      setError(errorText(e))
      return
    }
    const queuedId = sessionActions.addQueued(content, attached)
    try {
      const { queued, command } = await host.invoke('chat/send', { sessionId: id, content, ...(attached.length > 0 ? { images: attached } : {}) })
      // A built-in command ran on the host: nothing is queued; `/clear` opened a new session.
      if (command) {
        sessionActions.removeQueued(queuedId)
        // `/tasks` answers in the log; the panel opens too (its empty state when there is none).
        if (command.name === 'tasks') tasksPanelActions.show()
        if (command.sessionId) {
          await sessionsActions.refresh(host)
          await sessionsActions.open(host, command.sessionId)
        }
        return
      }
      sessionActions.setQueuedMode(queuedId, queued)
    } catch (e) {
      sessionActions.removeQueued(queuedId)
      setText((current) => current || content)
      // Nothing is lost: the images come back with the text.
      if (useComposerStore.getState().images.length === 0) composerActions.setImages(attached)
      setError(errorText(e))
    }
  }

  const stop = async () => {
    if (!sessionId) return
    try {
      await host.invoke('chat/cancel', { sessionId })
    } catch (e) {
      setError(errorText(e))
    }
  }

  const slash = useSlashMenu({ text, sessionId, insert: (next) => setText(next), run: (typed) => void send(typed) })

  const [modeError, setModeError] = useState<string | null>(null)
  const cycleMode = () => {
    setModeError(null)
    setApprovalMode(host, nextMode(useAppStore.getState().status?.approvalMode)).catch((e: unknown) => setModeError(errorText(e)))
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention.onKeyDown(event)) return
    if (slash.onKeyDown(event)) return
    if (event.key === 'Tab' && event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault()
      cycleMode()
      return
    }
    if (event.key === 'ArrowUp' && !event.shiftKey && text === '') {
      const last = lastPrompt(useSessionStore.getState().events)
      if (last) {
        event.preventDefault()
        setText(last)
      }
      return
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    void send()
  }

  const attach = (data: DataTransfer | null, event: ClipboardEvent | DragEvent) => {
    const files = filesOf(data)
    if (files.length === 0) return
    event.preventDefault()
    void attachFiles(files).then((problem) => setError(problem ?? null))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void send()
  }

  return (
    <form className="composer" onSubmit={submit}>
      {slash.menu}
      <textarea
        {...slash.inputProps}
        ref={box}
        aria-label="Message"
        value={text}
        rows={3}
        placeholder={running ? 'Message (steers the running turn)' : 'Message (Enter sends, Shift+Enter for a new line)'}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={(e) => attach(e.clipboardData, e)}
        onDrop={(e) => attach(e.dataTransfer, e)}
        onDragOver={(e) => {
          if ([...e.dataTransfer.types].includes('Files')) e.preventDefault()
        }}
        onSelect={mention.onCaretMove}
        {...mention.textareaProps}
      />
      {mention.picker}
      <Attachments onProblem={setError} />
      <div className="composer-actions">
        <ModeSwitch onCycle={cycleMode} error={modeError} />
        {running && (
          <button type="button" className="danger" onClick={() => void stop()}>Stop</button>
        )}
        <button type="submit" className="primary" disabled={!text.trim() && images.length === 0}>Send</button>
      </div>
      {error && <p className="form-error composer-error" role="alert">{error}</p>}
    </form>
  )
}
