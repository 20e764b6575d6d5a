// The hook inspector: for the open session, every hook that ran, grouped under the prompt or
// tool call it ran for, with its input, output, exit code, duration and decision.
import { useEffect, useMemo, useRef } from 'react'
import { appActions, useAppStore } from '../app/app-store'
import { useSessionStore } from '../transcript/session-store'
import { groupHookInvocations } from './hook-groups'
import { HookInvocation } from './HookInvocation'
import { Webhook, X } from '../app/icons'
import { EmptyState } from '../app/EmptyState'

export function HookInspector() {
  const events = useSessionStore((state) => state.events)
  const focus = useAppStore((state) => state.inspector.focus)
  const groups = useMemo(() => groupHookInvocations(events), [events])
  const panel = useRef<HTMLElement>(null)

  useEffect(() => {
    if (!focus) return
    const all = panel.current?.querySelectorAll<HTMLElement>('[data-invocation]') ?? []
    const el = [...all].find((node) => node.dataset.invocation === focus)
    el?.scrollIntoView?.({ block: 'nearest' })
  }, [focus])

  return (
    <aside ref={panel} className="inspector" aria-label="Hook inspector">
      <div className="inspector-head">
        <h2 className="panel-title">Hook inspector</h2>
        <button type="button" className="icon" aria-label="Close hook inspector" onClick={() => appActions.closeInspector()}><X className="icon-inline" aria-hidden="true" /></button>
      </div>
      {groups.length === 0 && (
        <EmptyState icon={Webhook} title="No hooks have run in this session.">
          Claude Code hooks (.claude/settings.json) and Codex hooks (hooks.json) run on prompts and tool calls once the workspace is trusted (Settings → Workspace).
        </EmptyState>
      )}
      {groups.map((group) => (
        <section key={group.key} className={`hook-group ${group.kind}`} aria-label={group.title}>
          <h3 className="hook-group-title" title={group.title}>{group.title}</h3>
          {group.invocations.map((view) => (
            <HookInvocation key={view.invocationId} view={view} open={view.invocationId === focus} />
          ))}
        </section>
      ))}
    </aside>
  )
}
