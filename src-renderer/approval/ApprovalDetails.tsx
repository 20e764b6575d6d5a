// What an approval dialog shows of the call itself: for Write/Edit the diff it would apply to
// the file as it is now (with the absolute path and the working folder), for Bash the command
// line, highlighted, with the folder it runs in, and the raw arguments (folded away when a diff
// or the command line says it better).
import { useMemo } from 'react'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { proposedContent } from '../../src-shared/host/proposed-content'
import { FileDiff } from '../transcript/ToolDiff'
import { CodeBlock } from '../markdown/CodeBlock'

export { proposedContent }

export function ApprovalDetails({ request }: { request: ApprovalRequestPublic }) {
  const file = request.file
  const after = useMemo(() => (file ? proposedContent(request.tool, request.args, file.before ?? '') : null), [file, request.tool, request.args])
  const json = JSON.stringify(request.args, null, 2)
  const command = request.tool === 'Bash' && typeof request.args.command === 'string' ? request.args.command : null
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
      {command !== null ? (
        <>
          <div className="field-label">Command that will run</div>
          {typeof request.args.description === 'string' && request.args.description && <p className="approval-description">{request.args.description}</p>}
          <div className="approval-command" aria-label="Command that will run" role="group">
            <CodeBlock code={command} info="bash" />
          </div>
          <details className="approval-json">
            <summary>Arguments (JSON)</summary>
            <pre className="code-block approval-args" tabIndex={0}>{json}</pre>
          </details>
        </>
      ) : file && after !== null ? (
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
