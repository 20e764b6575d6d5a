// The files a message mentioned with `@path`, under the message: one row per file that expands to
// exactly what the model was given (the Read tool's text), or says why the file was not attached.
import { memo } from 'react'
import type { MentionedFile } from '../../src-shared/session/mention-events'

export const MentionedFiles = memo(function MentionedFiles({ files }: { files: readonly MentionedFile[] }) {
  return (
    <ul className="mentioned-files" aria-label="Attached files">
      {files.map((file) =>
        file.content !== undefined ? (
          <li key={file.path}>
            <details className="mentioned-file">
              <summary title={file.path}>
                <span aria-hidden="true">@</span>
                {file.mention} <span className="muted small">{lineCount(file.content)}</span>
              </summary>
              <pre className="msg-text small">{file.content}</pre>
            </details>
          </li>
        ) : (
          <li key={file.path} className="mentioned-file not-attached" role="note">
            <span aria-hidden="true">@</span>
            {file.mention} <span className="small">{file.error}</span>
          </li>
        )
      )}
    </ul>
  )
})

/** "N lines" from the Read text (line-numbered; its trailing note about a window is not a line). */
function lineCount(content: string): string {
  const window = /\(Showing lines \d+-(\d+) of (\d+)\./.exec(content)
  if (window) return `lines 1-${window[1]} of ${window[2]}`
  const lines = content.split('\n').filter((line) => /^\d+\t/.test(line)).length
  return `${lines} line${lines === 1 ? '' : 's'}`
}
