// The order of what Seam asks of an ACP client's terminal, with a scripted client terminal whose
// answers the test releases one by one (the client is outside the project: this is its edge).
import { describe, expect, it } from 'vitest'
import { terminalCommand, type EditorTerminal } from './terminal-task'

function scriptedTerminal() {
  const calls: string[] = []
  const pendingOutputs: Array<() => void> = []
  let output = 'first\n'
  let exit!: (status: { exitCode: number }) => void
  const terminal: EditorTerminal = {
    id: 'term-1',
    currentOutput: () => {
      calls.push('output')
      return new Promise((resolve) => pendingOutputs.push(() => resolve({ output, truncated: false })))
    },
    waitForExit: () => new Promise((resolve) => (exit = resolve)),
    kill: async () => {
      calls.push('kill')
      return {}
    },
    release: async () => {
      calls.push('release')
      return {}
    }
  }
  return {
    terminal,
    calls,
    print: (text: string) => (output += text),
    exit: (exitCode: number) => exit({ exitCode }),
    answerOutput: async () => {
      await waitFor(() => pendingOutputs.length > 0)
      pendingOutputs.shift()!()
    }
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve))
  expect(condition()).toBe(true)
}

describe('a command in a client terminal', () => {
  it('a refresh asked while the last fetch is under way never reaches the terminal after its release', async () => {
    const client = scriptedTerminal()
    const received: string[] = []
    let exitCode: number | undefined
    const command = terminalCommand(client.terminal, '')
    command.attach({ output: (text) => received.push(text), exit: (code) => (exitCode = code) })

    client.print('second\n')
    client.exit(0)
    // The end's own fetch is under way; a periodic refresh comes in before it is answered.
    await waitFor(() => client.calls.length === 1)
    const refreshed = command.refresh!()
    await client.answerOutput()
    await refreshed
    await waitFor(() => client.calls.includes('release'))

    expect(client.calls).toEqual(['output', 'release'])
    expect(received).toEqual(['first\nsecond\n'])
    expect(exitCode).toBe(0)
    // Once ended, a refresh asks nothing.
    await command.refresh!()
    expect(client.calls).toEqual(['output', 'release'])
  })

  it('fetches asked while the command runs are made one at a time, each new part appended once', async () => {
    const client = scriptedTerminal()
    const received: string[] = []
    const command = terminalCommand(client.terminal, 'first\n')
    command.attach({ output: (text) => received.push(text), exit: () => undefined })

    const one = command.refresh!()
    client.print('second\n')
    const two = command.refresh!()
    await client.answerOutput()
    await one
    await waitFor(() => client.calls.length === 2)
    expect(client.calls).toEqual(['output', 'output'])
    await client.answerOutput()
    await two
    expect(received).toEqual(['second\n'])
  })
})
