// The todo list's shapes and the rules that derive the list in force from the session log.
// Claude Code's TodoWrite (claude-code-extensions.md 1(e)): input `{todos: [{content, status,
// activeForm}]}`, output `{oldTodos, newTodos}`, and the text the model reads after each write.
import { z } from 'zod'
import type { SessionEvent } from '@seam/sdk'

export const TODO_WRITE = 'TodoWrite'

export const TodoStatusSchema = z.enum(['pending', 'in_progress', 'completed'])
export type TodoStatus = z.infer<typeof TodoStatusSchema>

export const TodoItemSchema = z.strictObject({
  content: z.string().min(1).describe('What is to be done, in the imperative ("Run the tests")'),
  status: TodoStatusSchema.describe('pending, in_progress (one item at a time) or completed'),
  activeForm: z.string().min(1).describe('The same in the present continuous, shown while it is in progress ("Running the tests")')
})
export type TodoItem = z.infer<typeof TodoItemSchema>

export const TodoWriteInputSchema = z.strictObject({
  todos: z.array(TodoItemSchema).describe('The whole updated list (it replaces the previous one)')
})
export type TodoWriteInput = z.infer<typeof TodoWriteInputSchema>

/** Claude Code's tool_response for TodoWrite (what PostToolUse hooks read as `tool_response`). */
export interface TodoWriteStructured {
  oldTodos: TodoItem[]
  newTodos: TodoItem[]
}

/** The text the model reads after a write, as Claude Code words it. */
export const TODO_WRITE_RESULT_TEXT =
  'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable'

/** The list kept after a write: as Claude Code does, a list whose items are all completed is cleared. */
export function listInForce(written: readonly TodoItem[]): TodoItem[] {
  return written.every((todo) => todo.status === 'completed') ? [] : [...written]
}

const StructuredSchema = z.object({ newTodos: z.array(TodoItemSchema) })

/** The `newTodos` of a successful TodoWrite result, or undefined for anything else. */
export function writtenTodos(name: string, isError: boolean, structured: unknown): TodoItem[] | undefined {
  if (name !== TODO_WRITE || isError) return undefined
  const parsed = StructuredSchema.safeParse(structured)
  return parsed.success ? parsed.data.newTodos : undefined
}

/** The list in force at the end of a session log: the last successful TodoWrite decides. */
export function todosFromLog(events: readonly SessionEvent[]): TodoItem[] {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type !== 'tool/result') continue
    const written = writtenTodos(event.name, event.isError, event.structured)
    if (written) return listInForce(written)
  }
  return []
}
