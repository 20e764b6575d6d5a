// What an approval dialog shows of the call itself: for Write/Edit the diff it would apply to
// the file as it is now (with the absolute path and the working folder), for Bash the folder it
// runs in, and the raw arguments (folded away when a diff says it better).
import { useMemo } from 'react'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { applyEdit } from '../transcript/line-diff'
import { FileDiff } from '../transcript/ToolDiff'

/** The file's text after the call, or null when the arguments do not say (then the JSON shows). */
export function proposedContent(tool: string, args: Readonly<Record<string, unknown>>, before: string): string | null {
  if (tool === 'Write') return typeof args.content === 'string' ? args.content : null
  if (tool === 'Edit') {
    const { old_string: oldString, new_string: newString, replace_all: replaceAll } = args
    if (typeof oldString !== 'string' || typeof newString !== 'string') return null
    return applyEdit(before, oldString, newString, replaceAll === true)
  }
  if (tool === 'MultiEdit' && Array.isArray(args.edits)) {
    let text = before
    for (const edit of args.edits as Array<Record<string, unknown>>) {
      if (typeof edit?.old_string !== 'string' || typeof edit.new_string !== 'string') return null
      text = applyEdit(text, edit.old_string, edit.new_string, edit.replace_all === true)
    }
    return text
  }
  return null
}

export function ApprovalDetails({ request }: { request: ApprovalRequestPublic }) {
  const file = request.file
  const after = useMemo(() => (file ? proposedContent(request.tool, request.args, file.before ?? '') : null), [file, request.tool, request.args])
  const json = JSON.stringify(request.args, null, 2)
  return (
    <>
      {file && (
        <dl className="approval-facts">
          <dt>File</dt>
          <dd><code className="path" aria-label="File path">{file.path}</code>{file.before === null ? ' (new file)' : ''}</dd>
          {request.cwd && (
            <>
              <dt>Working folder</dt>
              <dd><code className="path" aria-label="Working folder">{request.cwd}</code></dd>
            </>
          )}
        </dl>
      )}
      {!file && request.cwd && (
        <dl className="approval-facts">
          <dt>{request.tool === 'Bash' ? 'Runs in' : 'Working folder'}</dt>
          <dd><code className="path" aria-label="Runs in">{request.cwd}</code></dd>
        </dl>
      )}
      {file && after !== null ? (
        <>
          <div className="field-label">Change that will be applied</div>
          <div className="approval-diff">
            <FileDiff filePath={file.path} before={file.before ?? ''} after={after} label="Change that will be applied" />
          </div>
          {file.truncated && <p className="muted small">The file is large: the diff covers its first 512 KB.</p>}
          <details className="approval-json">
            <summary>Arguments (JSON)</summary>
            <pre className="code-block approval-args" tabIndex={0}>{json}</pre>
          </details>
        </>
      ) : (
        <>
          <div className="field-label">Arguments that will run</div>
          <pre className="code-block approval-args" tabIndex={0}>{json}</pre>
        </>
      )}
    </>
  )
}
