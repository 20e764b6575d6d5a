// The `TodoWrite` tool: the agent's plan for the session. The session log is the list's one
// record: each successful write's result (`{oldTodos, newTodos}`, a `tool/result` event) holds
// the whole list, so a resumed session, the UI's checklist and ACP's `plan` update all read it
// from there. This plugin keeps the list in force per session to answer `oldTodos`.
import { definePlugin, defineTool, type ToolDefinition } from '@seam/sdk'
import {
  TODO_WRITE,
  TODO_WRITE_RESULT_TEXT,
  TodoWriteInputSchema,
  listInForce,
  todosFromLog,
  writtenTodos,
  type TodoItem,
  type TodoWriteInput,
  type TodoWriteStructured
} from './todos'

export * from './todos'

const DESCRIPTION = [
  'Keeps your plan for this session as a checklist the user sees above the message box.',
  'Use it for work of three steps or more: write the whole list each time (it replaces the previous one).',
  'Each item has `content` (imperative: "Fix the failing test"), `activeForm` (present continuous: "Fixing the failing test") and `status`.',
  'Keep exactly one item `in_progress` while you work, mark an item `completed` as soon as it is done, and add items you discover.',
  'Skip it for a single, simple step.'
].join('\n')

export function createTodoWriteTool(lists: Map<string, TodoItem[]>): ToolDefinition<TodoWriteInput> {
  return defineTool({
    name: TODO_WRITE,
    description: DESCRIPTION,
    inputSchema: TodoWriteInputSchema,
    sideEffects: false,
    execute({ todos }, exec) {
      const structured: TodoWriteStructured = { oldTodos: lists.get(exec.sessionId) ?? [], newTodos: todos }
      return { content: TODO_WRITE_RESULT_TEXT, structured }
    }
  })
}

export default definePlugin({
  name: 'todo',
  inject: ['tools'],
  apply(ctx) {
    /** The list in force per session, as the log says (updated from each final result). */
    const lists = new Map<string, TodoItem[]>()
    ctx.tools.register(createTodoWriteTool(lists))
    // The final result, after every post-tool transform (S15): a write a hook blocked is not the list.
    ctx.on('tools/result', (call, result) => {
      const written = writtenTodos(call.name, result.isError, result.structured)
      if (written) lists.set(call.sessionId, listInForce(written))
    })
    ctx.on('agent/session-start', (agent, source) => {
      if (source === 'resume') lists.set(agent.sessionId, todosFromLog(agent.events))
      else lists.delete(agent.sessionId)
    })
    ctx.on('agent/session-end', (agent) => void lists.delete(agent.sessionId))
  }
})
