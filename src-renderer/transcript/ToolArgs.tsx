// A call's sealed arguments; when a rewrite policy changed them, what the model asked for beside
// what runs.
import type { ToolCardItem } from './transcript-types'

export function ToolArgs({ item }: { item: ToolCardItem }) {
  const open = item.status === 'pending' || item.status === 'approval' || item.originalArgs !== undefined
  if (item.originalArgs) {
    return (
      <details className="tool-args" open={open}>
        <summary>Arguments (rewritten{item.rewrittenBy ? ` by ${item.rewrittenBy}` : ''})</summary>
        <div className="args-compare">
          <div>
            <div className="field-label">Model asked for</div>
            <pre className="code-block" aria-label="Original arguments">{pretty(item.originalArgs)}</pre>
          </div>
          <div>
            <div className="field-label">Runs with</div>
            <pre className="code-block" aria-label="Sealed arguments">{pretty(item.args)}</pre>
          </div>
        </div>
      </details>
    )
  }
  return (
    <details className="tool-args" open={open}>
      <summary>Arguments</summary>
      <pre className="code-block" aria-label="Sealed arguments">{pretty(item.args)}</pre>
      {item.argsError && <p className="form-error">{item.argsError}</p>}
    </details>
  )
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2)
}
