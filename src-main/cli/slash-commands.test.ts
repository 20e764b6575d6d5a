// `seam run "/cmd args"` end to end: the built CLI as a real process, custom commands read from
// real files, and a loopback server speaking the Anthropic wire protocol that records what the
// model received (issue 16, slash commands).
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { projectCommandTrustItems } from '../commands/trust'
import { ensureBuilt } from '../../test-support/built-cli'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const seamBin = join(root, 'bin', 'seam.mjs')

let home: string
let workspace: string
let codexHome: string

beforeAll(async () => {
  await ensureBuilt()
  home = await mkdtemp(join(tmpdir(), 'seam-slash-home-'))
  workspace = await mkdtemp(join(tmpdir(), 'seam-slash-ws-'))
  codexHome = join(home, 'codex-home')
  await put(join(workspace, 'src', 'parser.ts'), 'export function parse() { return 42 }\n')
  await put(join(workspace, '.claude', 'commands', 'review.md'), '---\ndescription: Review a change\nargument-hint: <number> [focus]\n---\nReview change #$0 focusing on $ARGUMENTS[1]. Read @src/parser.ts first.\n')
  await put(join(workspace, '.claude', 'commands', 'git', 'state.md'), '---\ndescription: Branch state\n---\nThe branch: !`echo on-branch-$0`\n')
  await put(join(workspace, '.claude', 'commands', 'cheap.md'), '---\nmodel: claude-cheap-1\n---\nSay hi.\n')
  await put(join(workspace, '.claude', 'commands', 'quick.md'), '---\nmodel: sonnet\n---\nBe quick.\n')
  await put(join(workspace, '.claude', 'commands', 'echoer.md'), '---\nallowed-tools: Bash(echo:*)\n---\nEcho something.\n')
  await put(join(home, '.claude', 'commands', 'mine.md'), '---\ndescription: A user command\n---\nUser command with $ARGUMENTS\n')
  await put(join(codexHome, 'prompts', 'draft.md'), '---\ndescription: Draft a PR\n---\nDraft a PR for $FILES titled $TITLE.\n')
}, 120_000)

afterAll(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

interface CliResult {
  code: number
  stdout: string
  stderr: string
}

async function seam(args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('setsid', ['-w', process.execPath, seamBin, ...args], {
      cwd: workspace,
      env: { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home, CODEX_HOME: codexHome, FAKE_KEY: 'sk-test' },
      timeout: 60_000
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr }
  }
}

type Body = { model: string; messages: Array<{ role: string; content: Array<{ type: string; text?: string }> | string }> }

function lastUserText(body: unknown): string {
  const message = (body as Body).messages.filter((m) => m.role === 'user').at(-1)!
  return typeof message.content === 'string' ? message.content : message.content.map((c) => c.text ?? '').join('')
}

async function withModel<T>(replies: Array<{ text: string }>, body: (url: string, requests: Array<{ body: unknown }>) => Promise<T>): Promise<T> {
  const server = await startFakeAnthropic(replies)
  try {
    return await body(server.url, server.requests as Array<{ body: unknown }>)
  } finally {
    await server.close()
  }
}

const flags = (url: string) => ['--workspace', workspace, '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main']

describe('seam run "/cmd args"', () => {
  it('a project command reaches the model expanded ($0 the first argument, $ARGUMENTS[1] the second, @file); the log keeps the typed text and the command', async () => {
    await withModel([{ text: 'reviewed' }], async (url, requests) => {
      const result = await seam(['run', '--json', ...flags(url), '/review 12 "error paths"'])
      expect(result.code).toBe(0)
      expect(requests).toHaveLength(1)
      expect(lastUserText(requests[0].body)).toBe('Review change #12 focusing on error paths. Read @src/parser.ts first.\n\nContents of src/parser.ts:\n```\nexport function parse() { return 42 }\n\n```')
      const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown })
      expect(events.find((e) => e.type === 'user/message')).toMatchObject({
        originalContent: '/review 12 "error paths"',
        command: { name: 'review', args: '12 "error paths"', source: 'project' },
        source: 'cli'
      })
    })
  })

  it('user commands and Codex prompts (/prompts:name KEY=value) expand too', async () => {
    await withModel([{ text: 'one' }, { text: 'two' }], async (url, requests) => {
      const result = await seam(['run', ...flags(url), '/mine the args', '/prompts:draft FILES="a.ts b.ts" TITLE=Fix'])
      expect(result.code).toBe(0)
      expect(lastUserText(requests[0].body)).toBe('User command with the args')
      expect(lastUserText(requests[1].body)).toBe('Draft a PR for a.ts b.ts titled Fix.')
    })
  })

  it('a command\'s front matter model runs its turn with that model; the next prompt uses the session\'s', async () => {
    await withModel([{ text: 'hi' }, { text: 'back' }], async (url, requests) => {
      const result = await seam(['run', ...flags(url), '/cheap', 'plain prompt'])
      expect(result.code).toBe(0)
      expect((requests[0].body as Body).model).toBe('claude-cheap-1')
      expect((requests[1].body as Body).model).toBe('claude-main')
    })
  })

  it('a Claude Code alias in model (sonnet) runs the turn on the newest model of that family in the model table; with another provider it is refused, naming it', async () => {
    await withModel([{ text: 'quick' }], async (url, requests) => {
      const result = await seam(['run', ...flags(url), '/quick'])
      expect(result.code).toBe(0)
      expect((requests[0].body as Body).model).toBe('claude-sonnet-5-5')
    })
    const refused = await seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '/quick'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(`/quick (${join(workspace, '.claude', 'commands', 'quick.md')}): model: "sonnet" is a Claude model alias, and the provider in use is openai-compatible`)
  })

  it('/clear ends the session with SessionEnd reason "clear" and the new one starts with SessionStart source "clear", as Claude Code\'s hooks see it', async () => {
    const hookHome = await mkdtemp(join(tmpdir(), 'seam-slash-hooks-'))
    try {
      const record = (file: string) => ({ type: 'command', command: `cat >> ${join(hookHome, file)}; echo >> ${join(hookHome, file)}` })
      await put(join(hookHome, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [record('start.jsonl')] }], SessionEnd: [{ hooks: [record('end.jsonl')] }] } }))
      await withModel([{ text: 'one' }, { text: 'two' }], async (url) => {
        const { stderr } = await run('setsid', ['-w', process.execPath, seamBin, 'run', ...flags(url), 'first', '/clear', 'second'], {
          cwd: workspace,
          env: { ...process.env, SEAM_HOME: join(hookHome, 'seam'), HOME: hookHome, FAKE_KEY: 'sk-test' },
          timeout: 60_000
        })
        const lines = async (file: string) => (await readFile(join(hookHome, file), 'utf8')).trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { session_id: string; source?: string; reason?: string })
        const starts = await lines('start.jsonl')
        const ends = await lines('end.jsonl')
        expect(starts.map((s) => s.source)).toEqual(['startup', 'clear'])
        expect(starts[0].session_id).not.toBe(starts[1].session_id)
        expect(ends.map((e) => [e.session_id, e.reason])).toEqual([[starts[0].session_id, 'clear'], [starts[1].session_id, 'other']])
        expect(stderr).not.toMatch(/error/i)
      })
    } finally {
      await rm(hookHome, { recursive: true, force: true })
    }
  })

  it('allowed-tools lets matching calls of the command\'s turn run without asking; other calls and later turns still ask (denied here)', async () => {
    const calls = (command: string) => ({ text: '', toolCalls: [{ name: 'Bash', args: { command } }] })
    await withModel([calls('echo from-allowed'), calls('touch not-allowed.txt'), { text: 'done' }, calls('echo later'), { text: 'end' }], async (url) => {
      const result = await seam(['run', '--json', '--approve', 'deny', ...flags(url), '/echoer', 'again'])
      const results = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown }).filter((e) => e.type === 'tool/result')
      // echo in the command's turn; touch in the same turn; echo again in the next turn ("again").
      expect(results.map((r) => [r.name, (r.verdict as { outcome: string }).outcome])).toEqual([
        ['Bash', 'allowed'],
        ['Bash', 'denied'],
        ['Bash', 'denied']
      ])
      expect((results[0].verdict as { reason?: string }).reason).toBe('allowed by /echoer\'s allowed-tools "Bash(echo:*)"')
      expect(String(results[0].content)).toContain('from-allowed')
      expect(existsSync(join(workspace, 'not-allowed.txt'))).toBe(false)
    })
  })

  it('!`cmd` lines run in a trusted workspace (--trust-workspace) and their output reaches the model', async () => {
    await withModel([{ text: 'ok' }], async (url, requests) => {
      const result = await seam(['run', '--trust-workspace', ...flags(url), '/git:state main'])
      expect(result.code).toBe(0)
      expect(lastUserText(requests[0].body)).toBe('The branch: on-branch-main')
    })
  })

  it('a project command whose shell lines changed after the workspace was trusted does not run them until approved again (a trust item, like a hook)', async () => {
    const file = join(workspace, '.claude', 'commands', 'git', 'state.md')
    const original = '---\ndescription: Branch state\n---\nThe branch: !`echo on-branch-$0`\n'
    await mkdir(join(home, 'seam'), { recursive: true })
    await writeFile(join(home, 'seam', 'settings.json'), JSON.stringify({ trustedWorkspaces: [workspace] }))
    try {
      expect(projectCommandTrustItems(workspace)).toEqual([expect.objectContaining({ source: 'Claude Code commands', event: '/git:state', command: 'echo on-branch-$0' })])
      // Trusted before: what is there now is pinned on first use, and runs.
      await withModel([{ text: 'ok' }], async (url, requests) => {
        expect((await seam(['run', ...flags(url), '/git:state main'])).code).toBe(0)
        expect(lastUserText(requests[0].body)).toBe('The branch: on-branch-main')
      })
      await writeFile(file, original.replace('echo on-branch-$0', 'echo changed-$0'))
      await withModel([{ text: 'never' }], async (url, requests) => {
        const result = await seam(['run', ...flags(url), '/git:state main'])
        expect(result.code).toBe(1)
        expect(result.stderr).toMatch(/\/git:state runs shell commands \(!`echo changed-main`\): .*state\.md is new or changed since the workspace's items were approved/)
        expect(requests).toHaveLength(0)
      })
    } finally {
      await writeFile(file, original)
      await rm(join(home, 'seam'), { recursive: true, force: true })
    }
  })

  it('in an untrusted workspace a command with !`cmd` fails naming the command, and the model is not asked', async () => {
    await withModel([{ text: 'never' }], async (url, requests) => {
      const result = await seam(['run', ...flags(url), '/git:state main'])
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('/git:state runs shell commands (!`echo on-branch-main`), which needs a trusted workspace')
      expect(requests).toHaveLength(0)
    })
  })

  it('/help and /usage print and exit 0 without asking the model; an unknown /name is refused (exit 1)', async () => {
    await withModel([{ text: 'never' }], async (url, requests) => {
      const help = await seam(['run', ...flags(url), '/help'])
      expect(help.code).toBe(0)
      expect(help.stdout).toContain('/review <number> [focus]  Review a change (project)')
      expect(help.stdout).toContain('/prompts:draft  Draft a PR (codex)')
      expect(help.stdout).toContain('/mine  A user command (user)')
      const usage = await seam(['run', ...flags(url), '/usage'])
      expect(usage.code).toBe(0)
      expect(usage.stdout).toContain('Requests: 0')
      const unknown = await seam(['run', ...flags(url), '/no-such-command'])
      expect(unknown.code).toBe(1)
      expect(unknown.stderr).toContain('Unknown slash command: /no-such-command')
      expect(requests).toHaveLength(0)
    })
  })
})
