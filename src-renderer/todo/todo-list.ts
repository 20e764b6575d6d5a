// The agent's todo list as the open session's log holds it: the `newTodos` of the last successful
// TodoWrite result (Claude Code's tool_response, written by plugins/todo). As in Claude Code, a
// list whose items are all completed is cleared. The result is untrusted data: it is checked.
import { z } from 'zod'
import type { SessionEvent } from '../../src-shared/session/events'

const TodoItem = z.object({
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string()
})
export type TodoItem = z.infer<typeof TodoItem>
const Written = z.object({ newTodos: z.array(TodoItem) })

export function todosInForce(events: readonly SessionEvent[]): readonly TodoItem[] {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type !== 'tool/result' || event.name !== 'TodoWrite' || event.isError) continue
    const written = Written.safeParse(event.structured)
    if (!written.success) continue
    return written.data.newTodos.every((todo) => todo.status === 'completed') ? [] : written.data.newTodos
  }
  return []
}
