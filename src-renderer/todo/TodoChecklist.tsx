// The agent's plan, pinned above the composer: the item in progress (its `activeForm`), how many
// are done, and the checklist (collapsible). Shown while the session has a list in force.
import { useMemo, useState } from 'react'
import { useSessionStore } from '../transcript/session-store'
import { todosInForce, type TodoItem } from './todo-list'
import { Circle, CircleCheck, CircleDot, type LucideIcon } from '../app/icons'

const STATUS_WORDS: Record<TodoItem['status'], string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' }
const STATUS_MARKS: Record<TodoItem['status'], LucideIcon> = { pending: Circle, in_progress: CircleDot, completed: CircleCheck }

export function TodoChecklist() {
  const events = useSessionStore((state) => state.events)
  const todos = useMemo(() => todosInForce(events), [events])
  const [open, setOpen] = useState(true)
  if (todos.length === 0) return null
  const active = todos.find((todo) => todo.status === 'in_progress')
  const done = todos.filter((todo) => todo.status === 'completed').length
  return (
    <section className="todo-checklist" aria-label="Todo list">
      <div className="todo-head">
        <button type="button" className="link todo-toggle" aria-expanded={open} aria-controls="todo-items" onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'} plan
        </button>
        <span className="todo-active" role="status" aria-label="Current task">
          {active ? active.activeForm : 'No task in progress'}
        </span>
        <span className="todo-count muted">{done} of {todos.length} done</span>
      </div>
      {open && (
        <ul id="todo-items" className="todo-items">
          {todos.map((todo, i) => (
            <li key={i} className="todo-item" data-status={todo.status}>
              <TodoMark status={todo.status} />
              <span className="todo-content">{todo.status === 'in_progress' ? todo.activeForm : todo.content}</span>
              <span className="sr-only"> ({STATUS_WORDS[todo.status]})</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function TodoMark({ status }: { status: TodoItem['status'] }) {
  const Mark = STATUS_MARKS[status]
  return <Mark className="todo-mark" aria-hidden="true" />
}
