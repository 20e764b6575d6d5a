// End to end: a Claude Code plugin folder whose `.lsp.json` runs typescript-language-server (from
// npm, pinned), driven through Seam's real agent loop by the loopback model server: the LSP tool's
// definition, references and hover, diagnostics after an Edit, the plugin manager's states, a
// server that cannot start, crash restarts within maxRestarts, and the servers ending with Seam.
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '@seam/sdk'
import { SOCKET_REFUSAL } from './server'
import { startLspHost, TS_LANGUAGE_SERVER, typescriptServer, type LspHost } from './test-host'
import { isAlive, scaledTestMs } from '@seam/sdk/testing'

let host: LspHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

// Generous bounds on waits that end as soon as the server answers (they are not timings).
const PATCH = `- id: lsp\n  config: { diagnosticsTimeoutMs: ${scaledTestMs(60_000)}, diagnosticsSettleMs: ${scaledTestMs(60_000)}, startupTimeoutMs: ${scaledTestMs(60_000)} }\n`

function results(events: readonly SessionEvent[]) {
  return new Map(events.flatMap((event) => (event.type === 'tool/result' ? [[event.callId, event] as const] : [])))
}

describe('plugin LSP servers with typescript-language-server', () => {
  it('starts lazily; the LSP tool finds definitions, references and hover; new diagnostics after an Edit reach the model; the manager shows idle then running; the server ends with Seam', async () => {
    host = await startLspHost({
      lspJson: { typescript: typescriptServer() },
      patch: PATCH,
      script: [
        { toolCalls: [{ id: 'read', name: 'Read', args: { file_path: 'src/main.ts' } }] },
        {
          toolCalls: [
            { id: 'def', name: 'LSP', args: { operation: 'goToDefinition', filePath: 'src/main.ts', line: 3, character: 30 } },
            { id: 'refs', name: 'LSP', args: { operation: 'findReferences', filePath: 'src/math.ts', line: 1, character: 17 } },
            { id: 'hover', name: 'LSP', args: { operation: 'hover', filePath: 'src/main.ts', line: 3, character: 30 } },
            { id: 'ws', name: 'LSP', args: { operation: 'workspaceSymbol', filePath: 'src/main.ts', line: 1, character: 1, query: 'add' } },
            { id: 'in', name: 'LSP', args: { operation: 'incomingCalls', filePath: 'src/math.ts', line: 1, character: 17 } },
            { id: 'py', name: 'LSP', args: { operation: 'hover', filePath: 'src/tool.py', line: 1, character: 1 } }
          ]
        },
        { toolCalls: [{ id: 'edit', name: 'Edit', args: { file_path: 'src/main.ts', old_string: 'add(1, 2)', new_string: "add(1, 'two')" } }] },
        { text: 'done' }
      ]
    })
    // Lazy: configured, listed as idle, and no process until a served file is used.
    expect(host.status()).toEqual([{ plugin: 'ts-lsp', server: 'typescript', state: 'idle', restarts: 0 }])
    const manager = host.runtime.kernel.getService('claudePluginManager')!
    expect(manager.rows().find((row) => row.name === 'ts-lsp')!.components!.lspServers).toEqual([expect.stringMatching(/^typescript: .*typescript-language-server.* --stdio \(idle\)$/)])

    const { events } = await host.run('look at the code')
    const byId = results(events)

    // The model was offered the LSP tool with Claude Code's input fields.
    const lsp = host.model.requests[0]!.body.tools!.find((tool) => tool.function.name === 'LSP')!.function
    expect(Object.keys((lsp.parameters as { properties: object }).properties)).toEqual(['operation', 'filePath', 'line', 'character', 'query'])
    expect((lsp.parameters as { required: string[] }).required).toEqual(['operation', 'filePath', 'line', 'character'])

    expect(byId.get('def')).toMatchObject({ isError: false, content: 'Found 1 definition:\n  src/math.ts:1:17' })
    expect(byId.get('refs')).toMatchObject({ isError: false })
    expect(byId.get('refs')!.content).toBe('Found 3 references in 2 files:\n\nsrc/math.ts:\n  Line 1:17\n\nsrc/main.ts:\n  Line 1:10\n  Line 3:30')
    expect(byId.get('hover')).toMatchObject({ isError: false })
    expect(byId.get('hover')!.content).toBe('Hover at line 3, character 30:\n\n```typescript\n(alias) add(a: number, b: number): number\nimport add\n```')
    expect(byId.get('ws')).toMatchObject({ isError: false })
    // A workspace symbol's location is its whole declaration.
    expect(byId.get('ws')!.content).toBe('Found 1 symbol matching "add":\n  add (Function) - src/math.ts:1:1')
    expect(byId.get('in')).toMatchObject({ isError: false })
    expect(byId.get('in')!.content).toMatch(/^Calls to add \(1\):\n  .* - src\/main\.ts:\d+:\d+; at src\/main\.ts:3:30$/)
    expect(byId.get('py')).toMatchObject({ isError: true, content: 'No LSP server is configured for .py files. The plugins\' LSP servers serve: .ts.' })

    // The Edit's result is the Edit's; the new diagnostic follows it as context, and the next request carries it.
    expect(byId.get('edit')).toMatchObject({ isError: false })
    const expected = "<new-diagnostics>The following new diagnostic issues were detected:\n\nsrc/main.ts:\n  ✘ [Line 3:37] Argument of type 'string' is not assignable to parameter of type 'number'. [2345] (typescript)\n</new-diagnostics>"
    expect(events.filter((event) => event.type === 'context/message').map((event) => (event as { text: string }).text)).toEqual([expected])
    const after = JSON.stringify(host.model.requests[3]!.body.messages)
    expect(after).toContain(JSON.stringify(`<system-reminder>\n${expected}\n</system-reminder>`).slice(1, -1))

    const [running] = await host.until((status) => status[0]?.state === 'running')
    expect(running).toMatchObject({ plugin: 'ts-lsp', server: 'typescript', state: 'running', restarts: 0, pid: expect.any(Number) })
    expect(manager.rows().find((row) => row.name === 'ts-lsp')!.components!.lspServers).toEqual([expect.stringMatching(/\(running\)$/)])

    const pid = running!.pid!
    expect(isAlive(pid)).toBe(true)
    await host.close()
    host = undefined
    expect(isAlive(pid)).toBe(false)
  })

  it('a server that cannot start is a notice naming the plugin and the server, the LSP call fails with why, and the manager shows it failed', async () => {
    host = await startLspHost({
      lspJson: { broken: { command: '/no/such/language-server', args: ['--stdio'], extensionToLanguage: { '.ts': 'typescript' } } },
      patch: PATCH,
      script: [{ toolCalls: [{ id: 'def', name: 'LSP', args: { operation: 'documentSymbol', filePath: 'src/math.ts', line: 1, character: 1 } }] }, { text: 'done' }]
    })
    const { events } = await host.run('symbols')
    const reason = 'cannot start "/no/such/language-server": spawn /no/such/language-server ENOENT'
    expect(results(events).get('def')).toMatchObject({ isError: true, content: `LSP server "broken" of plugin "ts-lsp" failed to start: ${reason}` })
    const notices = events.filter((event) => event.type === 'notice' && (event as { source: string }).source === 'lsp')
    expect(notices).toEqual([expect.objectContaining({ level: 'error', text: `LSP server "broken" of plugin "ts-lsp" failed to start: ${reason}` })])
    expect(host.status()).toEqual([{ plugin: 'ts-lsp', server: 'broken', state: 'failed', reason, restarts: 0 }])
    const row = host.runtime.kernel.getService('claudePluginManager')!.rows().find((r) => r.name === 'ts-lsp')!
    expect(row.components!.lspServers).toEqual([`broken: /no/such/language-server --stdio (failed: ${reason})`])
    expect(row.runs).toContain('LSP server broken: /no/such/language-server --stdio')
  })

  it('transport "socket" is refused with why (nothing records how to connect), no process started, the LSP call and the manager saying so', async () => {
    host = await startLspHost({
      lspJson: { sock: typescriptServer({ args: [TS_LANGUAGE_SERVER, '--socket', '0'], transport: 'socket' }) },
      patch: PATCH,
      script: [{ toolCalls: [{ id: 'def', name: 'LSP', args: { operation: 'documentSymbol', filePath: 'src/math.ts', line: 1, character: 1 } }] }, { text: 'done' }]
    })
    const { events } = await host.run('symbols')
    expect(SOCKET_REFUSAL).toMatch(/records no port, address or which side listens/)
    expect(results(events).get('def')).toMatchObject({ isError: true, content: `LSP server "sock" of plugin "ts-lsp" failed: ${SOCKET_REFUSAL}` })
    expect(host.status()).toEqual([{ plugin: 'ts-lsp', server: 'sock', state: 'failed', reason: SOCKET_REFUSAL, restarts: 0 }])
    const row = host.runtime.kernel.getService('claudePluginManager')!.rows().find((r) => r.name === 'ts-lsp')!
    expect(row.components!.lspServers).toEqual([expect.stringMatching(/^sock: .* \(failed: transport "socket" is not supported: /)])
  })

  it('restartOnCrash: a killed server is started again until maxRestarts, then it is failed', async () => {
    host = await startLspHost({
      lspJson: { typescript: typescriptServer({ restartOnCrash: true, maxRestarts: 1 }) },
      patch: PATCH,
      script: [{ toolCalls: [{ id: 'sym', name: 'LSP', args: { operation: 'documentSymbol', filePath: 'src/math.ts', line: 1, character: 1 } }] }, { text: 'done' }]
    })
    const { events } = await host.run('symbols')
    expect(results(events).get('sym')).toMatchObject({ isError: false, content: 'Symbols in src/math.ts:\nadd (Function) - Line 1' })
    const [first] = await host.until((status) => status[0]?.state === 'running')
    process.kill(first!.pid!, 'SIGKILL')
    const [second] = await host.until((status) => status[0]?.state === 'running' && status[0].restarts === 1)
    expect(second!.pid).not.toBe(first!.pid)
    process.kill(second!.pid!, 'SIGKILL')
    const [failed] = await host.until((status) => status[0]?.state === 'failed')
    expect(failed).toEqual({ plugin: 'ts-lsp', server: 'typescript', state: 'failed', restarts: 1, reason: 'the server process was killed by SIGKILL, after 1 restart (maxRestarts 1)' })
  })
})
