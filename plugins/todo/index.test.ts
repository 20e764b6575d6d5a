// TodoWrite on the real loop (kernel, tool pipeline, agent, session log on disk) with a scripted model.
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Agent, ScriptedModel, SessionStore, createTestHost, type TestHost } from '@seam/sdk/testing'
import todo, { TODO_WRITE_RESULT_TEXT, todosFromLog, type TodoItem } from './index'

const plan: TodoItem[] = [
  { content: 'Read the failing test', status: 'in_progress', activeForm: 'Reading the failing test' },
  { content: 'Fix the parser', status: 'pending', activeForm: 'Fixing the parser' }
]
const progressed: TodoItem[] = [
  { content: 'Read the failing test', status: 'completed', activeForm: 'Reading the failing test' },
  { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser' }
]
const done: TodoItem[] = progressed.map((t) => ({ ...t, status: 'completed' }))
const write = (todos: unknown) => ({ toolCalls: [{ name: 'TodoWrite', args: { todos } }] })

let host: TestHost | undefined
afterEach(async () => {
  await host?.cleanup()
  host = undefined
})

describe('TodoWrite', () => {
  it("takes and answers Claude Code's recorded shapes: {todos: [{content, status: pending|in_progress|completed, activeForm}]} in, {oldTodos, newTodos} out", async () => {
    host = await createTestHost({ plugins: [todo], script: [write(plan), { text: 'ok' }] })
    await host.run('plan it')
    const schema = host.model.requests[0]!.tools.find((spec) => spec.name === 'TodoWrite')!.inputSchema as {
      properties: { todos: { items: { properties: Record<string, { enum?: string[] }> } } }
    }
    expect(Object.keys(schema.properties)).toEqual(['todos'])
    expect(Object.keys(schema.properties.todos.items.properties)).toEqual(['content', 'status', 'activeForm'])
    expect(schema.properties.todos.items.properties.status!.enum).toEqual(['pending', 'in_progress', 'completed'])
    expect(Object.keys(host.events('tool/result')[0]!.structured as object)).toEqual(['oldTodos', 'newTodos'])
  })

  it("answers Claude Code's text to the model and {oldTodos, newTodos} as its structured result", async () => {
    host = await createTestHost({ plugins: [todo], script: [write(plan), write(progressed), { text: 'on it' }] })
    await host.run('fix the parser')
    const results = host.events('tool/result')
    expect(results.map((r) => [r.name, r.isError, r.content])).toEqual([
      ['TodoWrite', false, TODO_WRITE_RESULT_TEXT],
      ['TodoWrite', false, TODO_WRITE_RESULT_TEXT]
    ])
    expect(results[0]!.structured).toEqual({ oldTodos: [], newTodos: plan })
    expect(results[1]!.structured).toEqual({ oldTodos: plan, newTodos: progressed })
    // The model saw the tool with Claude Code's input shape.
    const spec = host.model.requests[0]!.tools!.find((t) => t.name === 'TodoWrite')
    expect(spec?.inputSchema).toMatchObject({ required: ['todos'], properties: { todos: { type: 'array', items: { required: ['content', 'status', 'activeForm'] } } } })
    expect(JSON.stringify(spec?.inputSchema)).toContain('"enum":["pending","in_progress","completed"]')
  })

  it('a list whose items are all completed is cleared, as in Claude Code: the next write starts from nothing', async () => {
    host = await createTestHost({ plugins: [todo], script: [write(plan), write(done), write(plan), { text: 'ok' }] })
    await host.run('go')
    const structured = host.events('tool/result').map((r) => r.structured)
    expect(structured[1]).toEqual({ oldTodos: plan, newTodos: done })
    expect(structured[2]).toEqual({ oldTodos: [], newTodos: plan })
  })

  it.each([
    ['a status outside the three', [{ content: 'x', status: 'done', activeForm: 'Doing x' }], /todos\[0\]\.status/],
    ['a missing activeForm', [{ content: 'x', status: 'pending' }], /todos\[0\]\.activeForm/],
    ['an empty content', [{ content: '', status: 'pending', activeForm: 'Doing x' }], /todos\[0\]\.content/],
    ['todos that is not a list', 'x', /todos/]
  ])('refuses %s with an error naming the field, and the list stays as it was', async (_name, bad, message) => {
    host = await createTestHost({ plugins: [todo], script: [write(plan), write(bad), write(progressed), { text: 'ok' }] })
    await host.run('go')
    const results = host.events('tool/result')
    expect(results[1]).toMatchObject({ isError: true, code: 'INVALID_ARGS' })
    expect(results[1]!.content).toMatch(message)
    expect(results[2]!.structured).toEqual({ oldTodos: plan, newTodos: progressed })
  })

  it('the list is durable: a session resumed from disk answers oldTodos with the list it had', async () => {
    host = await createTestHost({ plugins: [todo], script: [write(plan), { text: 'planned' }] })
    await host.run('plan it')
    await host.agent.close('closed')
    await host.log.close()
    const store = new SessionStore(path.dirname(host.log.path))
    const reopened = await store.open(host.log.id)
    expect(todosFromLog(reopened.events)).toEqual(plan)
    const model = new ScriptedModel([write(progressed), { text: 'resumed' }])
    const resumed = new Agent({ kernel: host.kernel, log: reopened, model, workspace: host.workspace, source: 'resume' })
    resumed.send('carry on')
    await resumed.whenIdle()
    const last = reopened.events.filter((e) => e.type === 'tool/result').at(-1)
    expect(last).toMatchObject({ name: 'TodoWrite', isError: false, structured: { oldTodos: plan, newTodos: progressed } })
    await resumed.close('closed')
    await reopened.close()
  })

  it('keeps one list per session, and a new session starts empty', async () => {
    host = await createTestHost({ plugins: [todo], script: [write(plan), { text: 'ok' }] })
    await host.run('plan')
    const store = new SessionStore(path.dirname(host.log.path))
    const other = store.create({ workspace: host.workspace })
    const agent = new Agent({ kernel: host.kernel, log: other, model: new ScriptedModel([write(progressed), { text: 'ok' }]), workspace: host.workspace, source: 'startup' })
    agent.send('other work')
    await agent.whenIdle()
    expect(other.events.find((e) => e.type === 'tool/result')).toMatchObject({ structured: { oldTodos: [], newTodos: progressed } })
    await agent.close('closed')
    await other.close()
  })

  it('S3: disposing the plugin removes the tool', async () => {
    host = await createTestHost({ plugins: [todo] })
    const tools = host.kernel.getService('tools')!
    expect(tools.get('TodoWrite')).toBeDefined()
    host.plugins[0]!.dispose()
    expect(tools.get('TodoWrite')).toBeUndefined()
  })
})
