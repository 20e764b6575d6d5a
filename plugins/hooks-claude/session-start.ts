// SessionStart -> agent/session-start (S4: cannot block). Plain stdout and additionalContext
// are injected for the model; exports a hook appends to $CLAUDE_ENV_FILE apply to the session's
// later Bash calls. `continue: false` and exit 2 have no effect here (claude-code-hooks.md §6).
import type { AgentHandle, SessionStartSource } from '@seam/sdk'
import { deliverAsync, occurrence, seeSession, showSystemMessages, type Bridge } from './bridge'
import { createEnvFile, readEnvFile } from './env'
import type { SessionEntry } from './sessions'
import type { HooksSnapshot } from './sources'
import { showLoadNotices } from './trust'
import { sessionStartContext, sessionStartSuccess } from './wording'

const BY = 'hook:SessionStart'

export function onSessionStart(bridge: Bridge, snapshot: () => HooksSnapshot) {
  return async (agent: AgentHandle, source: SessionStartSource): Promise<void> => {
    const entry = seeSession(bridge, agent)
    showLoadNotices(entry, snapshot())
    if (!bridge.invoker.has('SessionStart')) return
    entry.envFile ??= createEnvFile()
    // A fresh session also names its model, as Claude Code's startup SessionStart does.
    const model = source === 'startup' ? sessionModel(agent) : undefined
    const occ = occurrence(bridge, 'SessionStart', entry, model !== undefined ? { source, model } : { source }, {
      envFile: entry.envFile.file,
      onAsyncDone: (run) => deliverAsync(entry, run, 'SessionStart')
    })
    const result = await bridge.invoker.run(occ)
    applyEnvFile(entry)
    if (!result) return
    showSystemMessages(result.runs, occ.sink, 'SessionStart')
    const texts: string[] = []
    for (const run of result.runs) {
      if (run.outcome.plainStdoutContext) texts.push(sessionStartSuccess(source, run.outcome.plainStdoutContext))
      if (run.outcome.additionalContext) texts.push(sessionStartContext(run.outcome.additionalContext))
    }
    if (texts.length > 0) agent.inject(texts.join('\n\n'), BY)
  }
}

/** `export NAME=value` lines in CLAUDE_ENV_FILE become the session's environment (later Bash calls see them). */
function applyEnvFile(entry: SessionEntry): void {
  if (!entry.envFile) return
  const { assignments, skipped } = readEnvFile(entry.envFile.file)
  for (const { name, value } of assignments) {
    try {
      entry.agent.setEnv(name, value)
    } catch (error) {
      entry.agent.notify('warn', `CLAUDE_ENV_FILE: ${(error as Error).message}`, BY)
    }
  }
  if (skipped.length > 0) {
    entry.agent.notify('warn', `CLAUDE_ENV_FILE: ignored ${skipped.length} line(s) that are not "export NAME=value": ${skipped.slice(0, 3).join(' | ')}`, BY)
  }
}

/** The model the session was created with (its log's header), if it names one. */
function sessionModel(agent: AgentHandle): string | undefined {
  const header = agent.events[0]
  return header?.type === 'session/header' ? header.model?.model : undefined
}
