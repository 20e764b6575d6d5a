// The headless CLI end to end: the built `seam` command as a real process, against a loopback
// server speaking the OpenAI or Anthropic wire protocol.
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { startFakeOpenAI, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'

const run = promisify(execFile)

let home: string
let workspace: string
useCliScratch('cli', (dirs) => ({ home, workspace } = dirs))

interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs `seam` without a controlling terminal (setsid), as CI and scripts do. */
async function seam(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('setsid', ['-w', process.execPath, SEAM_BIN, ...args], {
      cwd: workspace,
      // HOME too: the user's ~/.claude and ~/.codex files must come from the test, not the machine.
      env: { ...process.env, SEAM_HOME: home, HOME: home, ...env },
      timeout: 60_000
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr }
  }
}

async function withOpenAI<T>(script: OpenAIScript, body: (url: string) => Promise<T>): Promise<T> {
  const server = await startFakeOpenAI(script)
  try {
    return await body(server.url)
  } finally {
    await server.close()
  }
}

describe('seam run', () => {
  it('streams the answer, runs a tool with --approve allow, and exits 0 when the turn completed', async () => {
    await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\n')
    const result = await withOpenAI(
      [{ toolCalls: [{ name: 'Read', args: { file_path: join(workspace, 'notes.txt') } }] }, { text: 'The file has two lines.' }],
      (url) => seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', '--approve', 'allow', 'read notes'])
    )
    expect(result.stderr).toContain('● Read(')
    expect(result.stderr).toContain('beta')
    expect(result.stdout).toContain('The file has two lines.')
    expect(result.code).toBe(0)
  })

  it('--json prints every session event as one JSON line, in log order', async () => {
    const result = await withOpenAI([{ text: 'hello there' }], (url) =>
      seam(['run', '--json', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'hi'])
    )
    expect(result.code).toBe(0)
    const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; seq: number })
    expect(events.map((e) => e.type)).toEqual(['session/header', 'turn/start', 'user/message', 'model/context', 'assistant/message', 'usage/step', 'turn/end'])
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('with no terminal, an ask is refused with the reason, and the model sees the denial', async () => {
    const result = await withOpenAI(
      [{ toolCalls: [{ name: 'Bash', args: { command: 'touch should-not-exist' } }] }, (body) => ({ text: `saw: ${JSON.stringify(body.messages.at(-1)?.content)}` })],
      (url) => seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'make a file'])
    )
    expect(existsSync(join(workspace, 'should-not-exist'))).toBe(false)
    expect(result.stderr).toMatch(/approval unavailable: no terminal/)
    expect(result.stdout).toMatch(/saw: .*Permission denied/)
    expect(result.code).toBe(0)
  })

  it('--approve ask puts the ask to the user on the terminal; a deny with a note reaches the model', async () => {
    const result = await withOpenAI(
      [{ toolCalls: [{ name: 'Bash', args: { command: 'touch asked.txt' } }] }, (body) => ({ text: `model saw: ${JSON.stringify(body.messages.at(-1)?.content)}` })],
      async (url) => {
        // `script` gives the CLI a real terminal; the answer is typed into it.
        const command = [process.execPath, SEAM_BIN, 'run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'make it']
          .map((a) => `'${a}'`)
          .join(' ')
        const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: workspace, env: { ...process.env, SEAM_HOME: home } })
        let output = ''
        let step = 0
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          if (step === 0 && output.includes('[n] deny (Enter):')) {
            step = 1
            child.stdin.write('n\r')
          }
          if (step === 1 && output.includes('note for the model (optional):')) {
            step = 2
            child.stdin.write('not today\r')
          }
        })
        const code = await new Promise<number>((resolveExit) => child.on('exit', (c) => resolveExit(c ?? 1)))
        return { code, output }
      }
    )
    expect(result.output).toMatch(/Bash\S* wants to run/)
    expect(result.output).toContain('touch asked.txt')
    expect(result.output).toContain(`in ${workspace}`)
    expect(result.output).toMatch(/model saw: .*not today/)
    expect(existsSync(join(workspace, 'asked.txt'))).toBe(false)
    expect(result.code).toBe(0)
  })

  it('[u] on the terminal approval saves the rule in the user\'s Seam rules, for every workspace', async () => {
    const result = await withOpenAI([{ toolCalls: [{ name: 'Bash', args: { command: 'touch everywhere.txt' } }] }, { text: 'done' }], async (url) => {
      const command = [process.execPath, SEAM_BIN, 'run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'make it']
        .map((a) => `'${a}'`)
        .join(' ')
      const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: workspace, env: { ...process.env, SEAM_HOME: home } })
      let output = ''
      let answered = false
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (!answered && output.includes('[n] deny (Enter):')) {
          answered = true
          child.stdin.write('u\r')
        }
      })
      const code = await new Promise<number>((resolveExit) => child.on('exit', (c) => resolveExit(c ?? 1)))
      return { code, output }
    })
    expect(result.output).toContain('[u] always allow everywhere')
    expect(result.code).toBe(0)
    expect(existsSync(join(workspace, 'everywhere.txt'))).toBe(true)
    expect(JSON.parse(readFileSync(join(home, 'permissions.json'), 'utf8'))).toMatchObject({ permissions: { allow: ['Bash(touch:*)'] } })
    expect(existsSync(join(workspace, '.claude', 'settings.local.json'))).toBe(false)
  })

  it('the terminal approval shows a Write as a coloured unified diff, and marks rm -rf as dangerous with Enter denying it', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'one\ntwo\n')
    mkdirSync(join(workspace, 'build'), { recursive: true })
    const result = await withOpenAI(
      [
        { toolCalls: [{ name: 'Write', args: { file_path: join(workspace, 'notes.txt'), content: 'one\n2\n' } }] },
        { toolCalls: [{ name: 'Bash', args: { command: 'rm -rf build' } }] },
        { text: 'done' }
      ],
      async (url) => {
        const command = [process.execPath, SEAM_BIN, 'run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'tidy']
          .map((a) => `'${a}'`)
          .join(' ')
        const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: workspace, env: { ...process.env, SEAM_HOME: home, NO_COLOR: '' } })
        let output = ''
        let asked = 0
        let noted = false
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          const asks = output.split('[n] deny (Enter):').length - 1
          if (asks > asked) {
            asked = asks
            // The Write is allowed; the rm -rf gets a bare Enter.
            child.stdin.write(asked === 1 ? 'y\r' : '\r')
          }
          if (!noted && output.includes('note for the model (optional):')) {
            noted = true
            child.stdin.write('\r')
          }
        })
        const code = await new Promise<number>((resolveExit) => child.on('exit', (c) => resolveExit(c ?? 1)))
        return { code, output }
      }
    )
    const path = join(workspace, 'notes.txt')
    expect(result.output).toContain(`\u001b[31m--- ${path}\u001b[0m`)
    expect(result.output).toContain(`\u001b[32m+++ ${path}\u001b[0m`)
    expect(result.output).toContain('\u001b[36m@@ -1,2 +1,2 @@\u001b[0m')
    expect(result.output).toContain('\u001b[31m-two\u001b[0m')
    expect(result.output).toContain('\u001b[32m+2\u001b[0m')
    expect(readFileSync(path, 'utf8')).toBe('one\n2\n')
    expect(result.output).toContain('(DANGEROUS)')
    expect(result.output).toContain('recursive delete: rm -rf build')
    expect(existsSync(join(workspace, 'build'))).toBe(true)
    expect(result.code).toBe(0)
  })

  it('--approve deny refuses every ask', async () => {
    const result = await withOpenAI([{ toolCalls: [{ name: 'Write', args: { file_path: join(workspace, 'w.txt'), content: 'x' } }] }, { text: 'ok' }], (url) =>
      seam(['run', '--approve', 'deny', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'write'])
    )
    expect(existsSync(join(workspace, 'w.txt'))).toBe(false)
    expect(result.stderr).toContain('DENIED')
    expect(result.code).toBe(0)
  })

  it('exits non-zero with the provider error when the turn fails (401), and resume continues the session', async () => {
    const failed = await withOpenAI([{ error: { status: 401, body: { error: { message: 'Incorrect API key provided' } } } }], (url) =>
      seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'hi'])
    )
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/turn ended: error: .*Incorrect API key provided/)
    const id = /session (\S+)/.exec(failed.stderr)?.[1]
    expect(id).toBeTruthy()

    const resumed = await withOpenAI([{ text: 'back again' }], (url) =>
      seam(['resume', id!, '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', 'again'])
    )
    expect(resumed.stdout).toContain('back again')
    expect(resumed.code).toBe(0)
    const log = await readFile(join(home, 'sessions', `${id}.jsonl`), 'utf8')
    expect(log.split('\n').filter(Boolean).map((l) => JSON.parse(l).type)).toContain('turn/end')

    const list = await seam(['sessions'])
    expect(list.stdout).toContain(id!)
  })

  it('a session keeps its provider and model: `seam resume ID "..."` needs no flags, and flags still override (issue 31)', async () => {
    const server = await startFakeOpenAI([{ text: 'first answer' }, { text: 'resumed answer' }, { text: 'overridden answer' }])
    const other = await startFakeOpenAI([{ text: 'from the other server' }])
    try {
      const first = await seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'session-model', 'hi'])
      expect(first.code).toBe(0)
      const id = /session (\S+)/.exec(first.stderr)?.[1]
      const header = JSON.parse((await readFile(join(home, 'sessions', `${id}.jsonl`), 'utf8')).split('\n')[0]!) as { model: unknown }
      expect(header.model).toEqual({ provider: 'openai-compatible', model: 'session-model', baseUrl: server.url })

      const resumed = await seam(['resume', id!, '--workspace', workspace, 'again'])
      expect(resumed.stderr).not.toContain('No model provider is configured')
      expect(resumed.stdout).toContain('resumed answer')
      expect(resumed.code).toBe(0)
      expect(server.requests.map((r) => r.body.model)).toEqual(['session-model', 'session-model'])

      const overridden = await seam(['resume', id!, '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', other.url, '--model', 'flag-model', 'once more'])
      expect(overridden.stdout).toContain('from the other server')
      expect(other.requests.map((r) => r.body.model)).toEqual(['flag-model'])
    } finally {
      await server.close()
      await other.close()
    }
  })

  it('a run of built-in commands only (`seam run "/help"`) leaves no session behind', async () => {
    const before = existsSync(join(home, 'sessions')) ? readdirSync(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl')) : []
    const result = await withOpenAI([], (url) => seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', '/help']))
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('/usage')
    expect(result.stderr).not.toMatch(/^session /m)
    const after = readdirSync(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'))
    expect(after.sort()).toEqual(before.sort())
  })

  it('speaks the Anthropic Messages protocol with --provider anthropic', async () => {
    const server = await startFakeAnthropic([{ text: 'from claude' }])
    try {
      const result = await seam(['run', '--workspace', workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', 'hi'], { FAKE_KEY: 'sk-test' })
      expect(result.stdout).toContain('from claude')
      expect(result.code).toBe(0)
      const headers = server.requests[0].headers
      // The SDK sends the key as x-api-key or as a bearer token, depending on its version.
      expect(`${headers['x-api-key'] ?? ''} ${headers.authorization ?? ''}`).toContain('sk-test')
    } finally {
      await server.close()
    }
  })

  it('--json prints the usage/step event of each request: the provider usage fields, the context window and the cost from the price table (issue 16)', async () => {
    const server = await startFakeAnthropic([{ text: 'priced', usage: { inputTokens: 2_000_000, cachedInputTokens: 1_000_000, outputTokens: 100_000 } }])
    try {
      const result = await seam(['run', '--json', '--workspace', workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', 'hi'], { FAKE_KEY: 'sk-test' })
      expect(result.code).toBe(0)
      const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; [key: string]: unknown })
      const usage = events.filter((e) => e.type === 'usage/step')
      expect(usage).toHaveLength(1)
      // The default table's claude-sonnet-5-5: $3 input, $0.30 cached input, $15 output per million tokens.
      expect(usage[0]).toMatchObject({
        step: 0,
        provider: 'anthropic',
        model: 'claude-sonnet-5-5',
        usage: { inputTokens: 2_000_000, cachedInputTokens: 1_000_000, cacheWriteTokens: 0, outputTokens: 100_000, reasoningTokens: 0 },
        contextWindow: 200_000
      })
      expect(usage[0].costUsd).toBeCloseTo(3 + 0.3 + 1.5, 6)
      expect(events.findIndex((e) => e.type === 'usage/step')).toBeGreaterThan(events.findIndex((e) => e.type === 'assistant/message'))
    } finally {
      await server.close()
    }
  })

  it('"/compact INSTRUCTIONS" as a prompt and `seam compact ID` compact the session with the model writing the summary (issue 16)', async () => {
    const server = await startFakeAnthropic([{ text: 'first answer' }, { text: 'SUMMARY one' }, { text: 'second answer' }, { text: 'SUMMARY two' }])
    try {
      const env = { FAKE_KEY: 'sk-test' }
      const base = ['--workspace', workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY']
      const result = await seam(['run', '--json', ...base, 'hello', '/compact keep the names', 'again'], env)
      expect(result.code).toBe(0)
      const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; [key: string]: unknown })
      const compaction = events.find((e) => e.type === 'compaction')
      expect(compaction).toMatchObject({ trigger: 'manual', instructions: 'keep the names', summary: 'SUMMARY one' })
      expect(JSON.stringify(server.requests[1].body)).toContain('keep the names')
      const id = String(events[0].sessionId)
      const again = await seam(['compact', id, ...base], env)
      expect(again.code).toBe(0)
      expect(again.stderr).toContain('Compacted:')
      // The request after the compaction and the second summary request both start from the first summary.
      expect(JSON.stringify(server.requests[2].body)).toContain('SUMMARY one')
      expect(JSON.stringify(server.requests[3].body)).toContain('SUMMARY one')
      expect(JSON.stringify(server.requests[3].body)).not.toContain('hello')
    } finally {
      await server.close()
    }
  })

  it('"/compact" headless, as Claude Code: PreCompact runs with custom_instructions null even when there is nothing to compact ("Not enough messages to compact.", exit 1); a blocking PreCompact hook keeps the history (exit 1, no summary request)', async () => {
    const hookHome = await mkdtemp(join(tmpdir(), 'seam-cli-compact-'))
    const server = await startFakeAnthropic([{ text: 'first answer' }, { text: 'SUMMARY never' }])
    try {
      const recorded = join(hookHome, 'pre.jsonl')
      const settings = (command: string) => JSON.stringify({ hooks: { PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command }] }] } })
      await mkdir(join(hookHome, '.claude'), { recursive: true })
      await writeFile(join(hookHome, '.claude', 'settings.json'), settings(`cat >> ${recorded}; echo >> ${recorded}`))
      const env = { FAKE_KEY: 'sk-test', HOME: hookHome }
      const base = ['--workspace', workspace, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY']

      const empty = await seam(['run', ...base, '/compact'], env)
      expect(empty.stderr).toContain('Not enough messages to compact.\n')
      expect(empty.code).toBe(1)
      expect(server.requests).toHaveLength(0)
      const [input] = (await readFile(recorded, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(Object.keys(input)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'trigger', 'custom_instructions'])
      expect(input).toMatchObject({ cwd: workspace, hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null })

      await writeFile(join(hookHome, '.claude', 'settings.json'), settings('echo "the notes are not saved yet" >&2; exit 2'))
      const blocked = await seam(['run', '--json', ...base, 'hello', '/compact keep names'], env)
      expect(blocked.code).toBe(1)
      const events = blocked.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown })
      expect(events.filter((e) => e.type === 'compaction')).toEqual([])
      expect(events).toContainEqual(expect.objectContaining({ type: 'notice', source: 'compaction', text: 'Compaction cancelled by hook:PreCompact: the notes are not saved yet\n' }))
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
      await rm(hookHome, { recursive: true, force: true })
    }
  })

  it('answers a bad flag with a usage error (exit 2) naming it', async () => {
    const result = await seam(['run', '--approve', 'maybe', 'hi'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--approve must be ask, allow or deny')
  })

  it('answers an unknown flag or a flag missing its value with a usage error (exit 2) naming it', async () => {
    const unknown = await seam(['run', '--no-such-flag', 'hi'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('--no-such-flag')
    const missing = await seam(['run', 'hi', '--model'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--model')
  })

  it('answers a --workspace that is not a folder with a usage error (exit 2) naming the flag', async () => {
    const result = await seam(['run', '--workspace', join(workspace, 'no-such-folder'), 'hi'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--workspace: .*no-such-folder" does not exist/)
  })

  it('runs a workspace\'s Claude Code hooks headless only with --trust-workspace (issue 6)', async () => {
    const ws = await mkdtemp(join(tmpdir(), 'seam-cli-hooks-'))
    await mkdir(join(ws, '.claude'))
    const guard = join(ws, 'guard.sh')
    // Denies any Bash command that mentions rm, with Claude Code's exit-2 protocol.
    await writeFile(guard, '#!/bin/sh\ninput=$(cat)\ncase "$input" in *rm*) echo "no rm here" >&2; exit 2;; esac\nexit 0\n', { mode: 0o755 })
    await writeFile(
      join(ws, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] } })
    )
    const server = await startFakeAnthropic([
      { toolCalls: [{ name: 'Bash', args: { command: 'rm -f important.txt' } }] },
      { text: 'ok' },
      { toolCalls: [{ name: 'Bash', args: { command: 'rm -f important.txt' } }] },
      { text: 'ok' }
    ])
    try {
      await writeFile(join(ws, 'important.txt'), 'keep me')
      const args = ['run', '--json', '--workspace', ws, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--approve', 'allow']
      const trusted = await seam([...args, '--trust-workspace', 'clean up'], { FAKE_KEY: 'k' })
      expect(trusted.code).toBe(0)
      const events = trusted.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; content?: string; isError?: boolean; input?: string })
      const result = events.find((e) => e.type === 'tool/result')!
      expect(result.isError).toBe(true)
      expect(result.content).toBe(`PreToolUse:Bash hook error: [${guard}]: no rm here\n`)
      // --approve allow is Claude Code's bypassPermissions (claude-code-hooks.md §6 common fields).
      const invoked = events.find((e) => e.type === 'hook/invoked')!
      expect(JSON.parse(invoked.input ?? '{}')).toMatchObject({ hook_event_name: 'PreToolUse', permission_mode: 'bypassPermissions' })
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['hook/invoked', 'hook/result']))
      expect(await readFile(join(ws, 'important.txt'), 'utf8')).toBe('keep me')

      // Without trust the workspace's hooks do not run, and the user is told so.
      const untrusted = await seam([...args, 'clean up'], { FAKE_KEY: 'k' })
      const notices = untrusted.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string })
      expect(notices.some((e) => e.type === 'notice' && /not trusted|untrusted|trust/i.test(e.text ?? ''))).toBe(true)
      expect(notices.some((e) => e.type === 'hook/invoked')).toBe(false)
    } finally {
      await server.close()
      await rm(ws, { recursive: true, force: true })
    }
  })
})

describe('a PreToolUse hook answering "defer", headless (claude-code-hooks.md §5.1 defer)', () => {
  it('the tool does not run and the turn ends there, with the tool_deferred reason in --json', async () => {
    const ws = await mkdtemp(join(tmpdir(), 'seam-cli-defer-'))
    await mkdir(join(ws, '.claude'))
    const hook = join(ws, 'defer.sh')
    await writeFile(hook, '#!/bin/sh\ncat >/dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"wait for review"}}\'\n', { mode: 0o755 })
    await writeFile(join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] } }))
    const server = await startFakeAnthropic([{ toolCalls: [{ name: 'Bash', args: { command: 'touch ran.txt' } }] }, { text: 'never asked' }])
    try {
      const args = ['run', '--json', '--workspace', ws, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--approve', 'allow', '--trust-workspace', 'go']
      const result = await seam(args, { FAKE_KEY: 'k' })
      const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string })
      expect(existsSync(join(ws, 'ran.txt'))).toBe(false)
      expect(events.some((e) => e.type === 'notice' && (e.text ?? '').includes('tool_deferred: Bash was deferred by a PreToolUse hook: wait for review'))).toBe(true)
      expect(events.filter((e) => e.type === 'assistant/message')).toHaveLength(1)
    } finally {
      await server.close()
      await rm(ws, { recursive: true, force: true })
    }
  })
})

describe('model adapters are profile entries', () => {
  it('a patch that disables the Anthropic adapter ends the turn with an error naming the provider', async () => {
    const patch = join(workspace, 'no-anthropic.patch.yml')
    await writeFile(patch, '- id: model-anthropic\n  disabled: true\n')
    const server = await startFakeAnthropic([{ text: 'never sent' }])
    try {
      const result = await seam(['run', '--patch', patch, '--workspace', workspace, '--provider', 'anthropic', '--base-url', server.url, 'hi'])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/turn ended: error: No model adapter is loaded for provider "anthropic"/)
      expect(server.requests).toHaveLength(0)
    } finally {
      await server.close()
    }
  })
})

describe('a patch layer that does not compose', () => {
  it('seam run refuses to run without it: names file, line and field and exits 1 before asking the model', async () => {
    const patch = join(workspace, 'bad-run.patch.yml')
    await writeFile(patch, '- id: permission-policy\n  config:\n    mode: sometimes\n')
    const server = await startFakeOpenAI([{ text: 'should not be asked' }])
    try {
      const result = await seam(['run', '--patch', patch, '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', 'hi'])
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(patch)
      expect(result.stderr).toMatch(/:\d+.*mode/)
      expect(server.requests).toHaveLength(0)
    } finally {
      await server.close()
    }
  })
})

describe('seam config --dump', () => {
  it('prints the composed tree with patch layers applied, and names file, line and field on a bad patch', async () => {
    const patch = join(workspace, 'extra.patch.yml')
    await writeFile(patch, '- id: tool-timeout\n  disabled: true\n')
    const ok = await seam(['config', '--dump', '--patch', patch])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/id: tool-timeout[\s\S]*disabled: true/)
    expect(ok.stdout).toContain('id: permission-policy')

    await writeFile(patch, '- id: permission-policy\n  config:\n    mode: sometimes\n')
    const bad = await seam(['config', '--dump', '--patch', patch])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain(patch)
    expect(bad.stderr).toMatch(/:\d+/)
    expect(bad.stderr).toContain('mode')
  })
})
