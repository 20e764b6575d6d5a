// `seam run "look at @src/x.ts"` headless (issue 16, mentions): the built CLI as a real process
// against the loopback OpenAI-wire server; the model receives the file after the prompt, stderr
// says what was attached and what was not, and the session log holds the mentions/attached event.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { ensureBuilt } from '../../test-support/built-cli'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')

let home: string
let workspace: string
beforeAll(async () => {
  await ensureBuilt()
  home = await mkdtemp(join(tmpdir(), 'seam-cli-home-'))
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'seam-cli-ws-')))
}, 120_000)
afterAll(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

describe('seam run with @ mentions', () => {
  it('sends the mentioned file with the prompt, reports a missing one on stderr, and logs mentions/attached after the message', async () => {
    await mkdir(join(workspace, 'src'), { recursive: true })
    await writeFile(join(workspace, 'src', 'x.ts'), 'export const answer = 42\n')
    const server = await startFakeOpenAI([
      (body) => {
        const user = body.messages.find((m) => m.role === 'user')
        return { text: typeof user?.content === 'string' && user.content.includes('1\texport const answer = 42') ? 'I see answer = 42' : 'no file content' }
      }
    ])
    try {
      const args = ['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', 'look at @src/x.ts and @nope.ts']
      const { stdout, stderr } = await run('setsid', ['-w', process.execPath, join(root, 'bin', 'seam.mjs'), ...args], {
        cwd: workspace,
        env: { ...process.env, SEAM_HOME: home, HOME: home },
        timeout: 60_000
      })
      expect(stdout).toContain('I see answer = 42')
      const [logFile] = (await readdir(join(home, 'sessions'))).filter((name) => name.endsWith('.jsonl'))
      const log = await readFile(join(home, 'sessions', logFile!), 'utf8')
      const events = log.trim().split('\n').map((line) => JSON.parse(line) as { type: string; files?: Array<{ mention: string; error?: string }>; text?: string })
      const types = events.map((e) => e.type)
      expect(types.indexOf('mentions/attached')).toBe(types.indexOf('user/message') + 1)
      expect(events.find((e) => e.type === 'mentions/attached')?.files?.map((f) => [f.mention, f.error])).toEqual([
        ['src/x.ts', undefined],
        ['nope.ts', 'not attached: no file nope.ts in the workspace']
      ])
      expect(events.find((e) => e.type === 'assistant/message')).toMatchObject({ text: 'I see answer = 42' })
      expect(stderr).toContain('[warn] @nope.ts: not attached: no file nope.ts in the workspace')
      expect(stderr).toContain(`@ attached ${join(workspace, 'src', 'x.ts')}`)
    } finally {
      await server.close()
    }
  })

  it('a Read(path) deny rule in a trusted workspace\'s .claude/settings.json refuses that mention, naming the rule; other files still attach', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'seam-cli-ws-')))
    const seamHome = await mkdtemp(join(tmpdir(), 'seam-cli-home-'))
    await mkdir(join(ws, '.claude'), { recursive: true })
    await writeFile(join(ws, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }))
    await writeFile(join(ws, '.env'), 'TOKEN=hunter2\n')
    await writeFile(join(ws, 'notes.md'), 'remember the milk\n')
    const server = await startFakeOpenAI([{ text: 'ok' }])
    try {
      const args = ['run', '--workspace', ws, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--trust-workspace', 'compare @.env with @notes.md']
      const { stderr } = await run('setsid', ['-w', process.execPath, join(root, 'bin', 'seam.mjs'), ...args], { cwd: ws, env: { ...process.env, SEAM_HOME: seamHome, HOME: seamHome }, timeout: 60_000 })
      const sent = JSON.stringify(server.requests[0]!.body.messages)
      expect(sent).not.toContain('hunter2')
      expect(sent).toContain('remember the milk')
      const rule = `the permission policy denies calls matching "Read(./.env)" (permissions.deny[0] in ${join(ws, '.claude', 'settings.json')})`
      expect(stderr).toContain(`[warn] @.env: not attached: ${rule}`)
    } finally {
      await server.close()
      await rm(ws, { recursive: true, force: true })
      await rm(seamHome, { recursive: true, force: true })
    }
  })
})
