// Issue 24 end to end: permission rules that cannot be walked around. The built `seam` as a real
// process, real `.claude/settings.json` files in a trusted workspace, a real PreToolUse hook process,
// real files, and a loopback server speaking the Anthropic wire protocol as the model.
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic, type AnthropicRequestBody } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'


let home: string
let workspace: string
useCliScratch('bash-rules', (dirs) => ({ home, workspace } = dirs))

afterEach(async () => {
  await rm(join(workspace, '.claude'), { recursive: true, force: true })
  await rm(join(home, 'records'), { recursive: true, force: true })
  for (const file of ['victim.txt', 'other.txt', 'secret.txt', 'kept.txt', 'ran.txt']) await rm(join(workspace, file), { force: true })
})

function seam(args: string[]): Promise<CliResult> {
  return runSeamHeadless(args, { cwd: workspace, home })
}

async function projectSettings(settings: Record<string, unknown>): Promise<void> {
  await mkdir(join(workspace, '.claude'), { recursive: true })
  await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify(settings))
}

/** One turn: the model asks for `command` through Bash, then answers "done"; returns the tool result the model got. */
async function bashTurn(command: string, approve: 'ask' | 'allow'): Promise<{ result: { content: string; isError: boolean }; requests: AnthropicRequestBody[] }> {
  const server = await startFakeAnthropic([{ text: 'Running it.', toolCalls: [{ name: 'Bash', args: { command } }] }, { text: 'done' }])
  try {
    const flags = ['--workspace', workspace, '--trust-workspace', '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', approve]
    const outcome = await seam(['run', ...flags, 'do it'])
    expect(outcome.code, outcome.stderr).toBe(0)
    const requests = server.requests.map((r) => r.body)
    expect(requests).toHaveLength(2)
    const blocks = requests[1].messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
    const toolResult = blocks.find((b) => b.type === 'tool_result')
    expect(toolResult, JSON.stringify(requests[1].messages)).toBeDefined()
    const content = typeof toolResult!.content === 'string' ? toolResult!.content : JSON.stringify(toolResult!.content)
    return { result: { content, isError: toolResult!.is_error === true }, requests }
  } finally {
    await server.close()
  }
}

describe('Bash permission rules from .claude/settings.json, end to end', { timeout: 90_000 }, () => {
  it('deny Bash(rm:*) refuses `echo start && rm -f victim.txt` even with --approve allow; the file survives; the `if: Bash(rm *)` hook ran for it', async () => {
    const records = join(home, 'records')
    await projectSettings({
      permissions: { deny: ['Bash(rm:*)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(rm *)', command: `mkdir -p ${records}; cat >> ${join(records, 'rm-hook.jsonl')}; echo >> ${join(records, 'rm-hook.jsonl')}` }] }] }
    })
    await writeFile(join(workspace, 'victim.txt'), 'precious\n')
    const { result } = await bashTurn('echo start && rm -f victim.txt', 'allow')
    expect(result.isError).toBe(true)
    expect(result.content).toContain('the permission policy denies calls matching "Bash(rm:*)"')
    expect(await readFile(join(workspace, 'victim.txt'), 'utf8')).toBe('precious\n')
    const hookInputs = (await readFile(join(records, 'rm-hook.jsonl'), 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { tool_input: { command: string } })
    expect(hookInputs.map((input) => input.tool_input.command)).toEqual(['echo start && rm -f victim.txt'])
  })

  it('allow Bash(echo:*) does not allow `echo ok && touch other.txt`: headless, nobody to ask, it is refused and nothing is created; `echo ok` alone runs', async () => {
    await projectSettings({ permissions: { allow: ['Bash(echo:*)'] } })
    const refused = await bashTurn('echo ok && touch other.txt', 'ask')
    expect(refused.result.isError).toBe(true)
    expect(existsSync(join(workspace, 'other.txt'))).toBe(false)
    const allowed = await bashTurn('echo ok > kept.txt', 'ask')
    expect(allowed.result.isError).toBe(false)
    expect(await readFile(join(workspace, 'kept.txt'), 'utf8')).toBe('ok\n')
  })

  it('deny Read(./secret.txt) refuses `cat secret.txt` through Bash: the secret never reaches the model', async () => {
    await projectSettings({ permissions: { deny: ['Read(./secret.txt)'] } })
    await writeFile(join(workspace, 'secret.txt'), 'TOP-SECRET-VALUE\n')
    const { result, requests } = await bashTurn('echo peek && cat secret.txt | base64', 'allow')
    expect(result.isError).toBe(true)
    expect(result.content).toContain('the permission policy denies calls matching "Read(./secret.txt)"')
    expect(result.content).toContain(`\`cat secret.txt\` reads ${join(workspace, 'secret.txt')}`)
    const sent = JSON.stringify(requests)
    expect(sent).not.toContain('TOP-SECRET-VALUE')
    expect(sent).not.toContain(Buffer.from('TOP-SECRET-VALUE\n').toString('base64'))
  })

  it('an ask rule still asks in bypassPermissions: headless it is refused; other commands run without asking', async () => {
    await projectSettings({ permissions: { defaultMode: 'bypassPermissions', ask: ['Bash(touch:*)'] } })
    const asked = await bashTurn('echo one; touch ran.txt', 'ask')
    expect(asked.result.isError).toBe(true)
    expect(asked.result.content).toContain('calls matching "Bash(touch:*)" ask first')
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(false)
    const ran = await bashTurn('echo two > ran.txt', 'ask')
    expect(ran.result.isError).toBe(false)
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(true)
  })

  it('a command that cannot be read is refused headless, even in bypassPermissions, and the reason says why', async () => {
    await projectSettings({ permissions: { defaultMode: 'bypassPermissions', deny: ['Bash(rm:*)'] } })
    await writeFile(join(workspace, 'victim.txt'), 'precious\n')
    const { result } = await bashTurn('CMD=rm; $CMD -f victim.txt', 'ask')
    expect(result.isError).toBe(true)
    expect(result.content).toContain('cannot read the command: its command name is computed when it runs: $CMD -f victim.txt')
    expect(await readFile(join(workspace, 'victim.txt'), 'utf8')).toBe('precious\n')
  })
})
