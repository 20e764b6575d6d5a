// How every answerer names the subagent an approval comes from (the dialog, the Board, desktop
// notifications, `seam run`'s terminal, ACP): its type and the task the parent gave it.
// No DOM or Node imports.

export interface AskingAgent {
  agentType: string
  description?: string
}

const MAX_TASK = 80

/** `the Explore subagent ("find the config loader")`. */
export function subagentLabel(agent: AskingAgent): string {
  const task = agent.description?.replace(/\s+/g, ' ').trim()
  if (!task) return `the ${agent.agentType} subagent`
  return `the ${agent.agentType} subagent ("${task.length > MAX_TASK ? `${task.slice(0, MAX_TASK - 1)}…` : task}")`
}
