// One hook invocation in the inspector: what ran, with what input, and what came back.
import type { ReactNode } from 'react'
import { formatDuration } from '../transcript/format'
import type { HookInvocationView } from './hook-groups'

export function HookInvocation({ view, open }: { view: HookInvocationView; open: boolean }) {
  const { invoked, result } = view
  const event = invoked?.event ?? result?.event ?? '?'
  const outcome = !result ? 'running' : result.failureKind ? `failed: ${result.failureKind}` : result.decision ? `${result.outcomeKind}, ${result.decision}` : result.outcomeKind
  return (
    <details className="hook-invocation" data-invocation={view.invocationId} open={open}>
      <summary>
        <span className="hook-event">{invoked?.source ?? result?.source}:{event}</span> <span className="muted">{outcome}</span>
        {result && <span className="muted"> · {formatDuration(result.durationMs)}</span>}
      </summary>
      <dl className="hook-fields">
        <Field name="Source">{invoked?.source ?? result?.source}</Field>
        <Field name="Event">{event}</Field>
        {invoked?.matcher !== undefined && <Field name="Matcher"><code>{invoked.matcher || '(all)'}</code></Field>}
        {invoked && <Field name={invoked.handlerType === 'http' ? 'URL' : 'Command'}><code>{invoked.command}</code></Field>}
        {invoked && <Field name="Declared in"><span className="path">{invoked.sourceFile}</span></Field>}
        {result && <Field name="Exit code">{result.exitCode === null ? `none${result.signal ? ` (signal ${result.signal})` : ''}` : String(result.exitCode)}</Field>}
        {result?.httpStatus !== undefined && <Field name="HTTP status">{String(result.httpStatus)}</Field>}
        {result && <Field name="Duration">{formatDuration(result.durationMs)}</Field>}
        {result && <Field name="Outcome">{result.outcomeKind}</Field>}
        {result?.decision && <Field name="Decision">{result.decision}</Field>}
        {result?.failureKind && <Field name="Failure">{result.failureKind}{result.errorMessage ? `: ${result.errorMessage}` : ''}</Field>}
        {!result?.failureKind && result?.errorMessage && <Field name="Error">{result.errorMessage}</Field>}
      </dl>
      {invoked && <Block title="Input" text={prettyJson(invoked.input)} truncated={invoked.inputTruncated} />}
      {result && <Block title="stdout" text={result.stdout} truncated={result.stdoutTruncated} />}
      {result && <Block title="stderr" text={result.stderr} truncated={result.stderrTruncated} />}
    </details>
  )
}

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  )
}

function Block({ title, text, truncated }: { title: string; text: string; truncated: boolean }) {
  return (
    <div className="hook-block">
      <div className="field-label">
        {title}
        {truncated && <span className="badge warn">truncated</span>}
      </div>
      {text ? <pre className="code-block" tabIndex={0} aria-label={title}>{text}</pre> : <div className="muted small">(empty)</div>}
    </div>
  )
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text // cut at the byte cap or not JSON: shown as recorded
  }
}
