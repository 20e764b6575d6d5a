// Permission rules on Bash lines, part by part (issue 24): deny/ask on ANY part, allow only when
// EVERY part is allowed, unreadable lines never allowed by a rule, Read/Edit rules reaching the
// files a command reads or writes, and accept-edits' filesystem commands. Real plugins throughout:
// the tools registry, claude-settings reading temp files, the policy, the real shell parser.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { WorkspaceService } from '@seam/sdk'
import { toolsPlugin } from '@seam/sdk/testing'
import { definePlugin, Kernel } from '@seam/sdk'
import claudeSettings from '../claude-settings/index'
import permissionPolicy, { type PermissionPolicyConfig } from './index'

let dir: string
let ws: string
let project: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-policy-bash-'))
  ws = join(dir, 'ws')
  mkdirSync(join(ws, '.claude'), { recursive: true })
  mkdirSync(join(dir, 'home', '.claude'), { recursive: true })
  project = join(ws, '.claude', 'settings.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const workspacePlugin = definePlugin({
  name: 'test-workspace',
  apply(ctx, config: { root: string }) {
    const service: WorkspaceService = { root: config.root, trusted: true, seamHome: dir, contributeTrustItems: (owner) => owner.onDispose(() => {}), isApproved: () => true, itemsChanged: () => {}, approveItems: () => {} }
    ctx.provide('workspace', service)
  }
})

/** A kernel whose Bash tool records what it would run; `permissions` is the project's settings. */
function setup(permissions: Record<string, unknown>, policy: Partial<PermissionPolicyConfig> = {}) {
  writeFileSync(project, JSON.stringify({ permissions }))
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  const tools = kernel.getService('tools')!
  tools.register({ name: 'Bash', description: 'Bash', inputSchema: z.object({ command: z.string() }), sideEffects: true, execute: () => ({ content: 'ran' }) })
  kernel.plugin(workspacePlugin, { root: ws })
  kernel.plugin(claudeSettings, { userSettingsPath: join(dir, 'home', '.claude', 'settings.json') })
  kernel.plugin(permissionPolicy, { mode: 'ask-side-effects', ...policy })
  const asked: string[] = []
  kernel.context.on('approval/request', async (req) => (asked.push(req.reason), { outcome: 'denied' }))
  const verdict = async (command: string, cwd = ws) => {
    const out = await tools.execute({ name: 'Bash', args: { command }, callId: 'c', sessionId: 's', turnId: 't', cwd })
    const action = out.verdict.stage === 'approval' ? 'ask' : out.verdict.outcome === 'allowed' ? 'allow' : 'deny'
    return { action, reason: out.verdict.stage === 'approval' ? asked[asked.length - 1] : out.verdict.reason }
  }
  const run = async (command: string, cwd?: string) => (await verdict(command, cwd)).action
  return { run, verdict }
}

describe('Bash deny and ask rules match any part of the line', () => {
  it.each([
    ['echo start && rm -f victim.txt', 'deny'],
    ['ls; rm x', 'deny'],
    ['ls | rm x', 'deny'],
    ['(cd sub && rm x)', 'deny'],
    ['echo $(rm x)', 'deny'],
    ['echo `rm x`', 'deny'],
    ["bash -c 'echo a && rm b'", 'deny'],
    ['timeout 5 nice -n 2 rm x', 'deny'],
    ['FOO=1 rm x', 'deny'],
    ['find . | xargs rm', 'deny'],
    ['cat <<EOF\n$(rm x)\nEOF', 'deny'],
    ['ls && echo "rm x"', 'allow'],
    ['ls -la', 'allow']
  ])('deny Bash(rm:*) in never-ask: %j -> %s', async (command, expected) => {
    const { run } = setup({ deny: ['Bash(rm:*)'] }, { mode: 'never-ask' })
    expect(await run(command)).toBe(expected)
  })

  it('names the rule and the file', async () => {
    const { verdict } = setup({ deny: ['Bash(rm:*)'] })
    expect(await verdict('echo start && rm -f victim.txt')).toEqual({ action: 'deny', reason: `the permission policy denies calls matching "Bash(rm:*)" (permissions.deny[0] in ${project})` })
  })

  it('an ask rule still asks in never-ask (bypassPermissions), on any part, over an allow rule', async () => {
    const { verdict } = setup({ ask: ['Bash(git push:*)'], allow: ['Bash'] }, { mode: 'never-ask' })
    expect(await verdict('git status && git push origin')).toEqual({ action: 'ask', reason: `calls matching "Bash(git push:*)" ask first (permissions.ask[0] in ${project})` })
    expect((await verdict('git status')).action).toBe('allow')
  })

  it('deny beats ask beats allow, whatever part matches which', async () => {
    const { run } = setup({ deny: ['Bash(rm:*)'], ask: ['Bash(curl:*)'], allow: ['Bash(echo:*)', 'Bash(curl:*)', 'Bash(rm:*)'] })
    expect(await run('echo a && curl x && rm y')).toBe('deny')
    expect(await run('echo a && curl x')).toBe('ask')
    expect(await run('echo a && echo b')).toBe('allow')
  })
})

describe('deny and ask rules see through absolute paths, quotes and sudo/doas/run0; allow rules do not', () => {
  it.each([
    ['echo a && /bin/rm -f x', 'deny'],
    ['/usr/bin/rm x', 'deny'],
    ['"/bin/rm" x', 'deny'],
    ['./rm x', 'allow'], // a local program that happens to be called rm, not /bin/rm
    ['bin/rm x', 'allow'],
    ['sudo rm x', 'deny'],
    ['sudo -u bob -E rm x', 'deny'],
    ['sudo -u bob -- rm x', 'deny'],
    ['sudo HOME=/tmp rm x', 'deny'],
    ['sudo /bin/rm x', 'deny'],
    ['/usr/bin/sudo timeout 5 rm x', 'deny'],
    ['sudo sudo -n rm x', 'deny'],
    ["sudo bash -c 'echo a && rm x'", 'deny'],
    ['doas rm x', 'deny'],
    ['doas -u bob rm x', 'deny'],
    ['run0 --user=bob rm x', 'deny'],
    ['run0 -u bob rm x', 'deny'],
    ['command rm x', 'deny'],
    ['\\rm x', 'deny'],
    ['"rm" x', 'deny'],
    ["'r''m' x", 'deny'],
    ['echo sudo rm x', 'allow'],
    ['sudo ls', 'allow'],
    ['sudo -l', 'allow']
  ])('deny Bash(rm:*) in never-ask: %j -> %s', async (command, expected) => {
    const { run } = setup({ deny: ['Bash(rm:*)'] }, { mode: 'never-ask' })
    expect(await run(command)).toBe(expected)
  })

  it('an ask rule too: sudo git push asks under Bash(git push:*)', async () => {
    const { run } = setup({ ask: ['Bash(git push:*)'], allow: ['Bash'] }, { mode: 'never-ask' })
    expect(await run('sudo -u deploy git push origin')).toBe('ask')
    expect(await run('/usr/bin/git push')).toBe('ask')
    expect(await run('sudo git status')).toBe('allow')
  })

  it('a computed command behind sudo cannot be read: asks under a deny rule; a computed option value is no hiding place', async () => {
    const { verdict, run } = setup({ deny: ['Bash(rm:*)'] }, { mode: 'never-ask' })
    expect(await verdict('sudo $CMD x')).toMatchObject({ action: 'ask', reason: expect.stringMatching(/^cannot read the command: an option of `sudo` is computed when it runs: sudo \$CMD x/) })
    expect(await run('sudo -u bob $CMD x')).toBe('ask')
    expect(await run('sudo -u $U rm x')).toBe('deny')
  })

  it.each([
    ['rm x', 'allow'],
    ['/bin/rm x', 'ask'],
    ['sudo rm x', 'ask'],
    ['"rm" x', 'ask'] // its text is "rm" x, which Bash(rm:*) does not match: allow rules match the text as written
  ])('allow Bash(rm:*) stays literal: %j -> %s', async (command, expected) => {
    const { run } = setup({ allow: ['Bash(rm:*)'] })
    expect(await run(command)).toBe(expected)
  })

  it.each([
    ['sudo cat secret.txt', 'deny'],
    ['sudo -u bob head -n 1 secret.txt', 'deny'],
    ['/bin/cat secret.txt', 'deny'],
    ["doas sh -c 'cat secret.txt'", 'deny'],
    ['sudo cat other.txt', 'allow']
  ])('deny Read(./secret.txt) in never-ask: %j -> %s', async (command, expected) => {
    const { run } = setup({ deny: ['Read(./secret.txt)'] }, { mode: 'never-ask' })
    expect(await run(command)).toBe(expected)
  })

  it('Edit rules see sudo rm and sudo tee', async () => {
    const { run } = setup({ deny: ['Edit(./locked/**)'] }, { mode: 'never-ask' })
    expect(await run('sudo rm locked/a')).toBe('deny')
    expect(await run('echo x | sudo tee locked/b')).toBe('deny')
    expect(await run('sudo rm other/a')).toBe('allow')
  })
})

describe('allow rules cover a line only when every part is allowed', () => {
  it.each([
    ['echo ok', 'allow'],
    ['echo ok && echo two | echo three', 'allow'],
    ['echo ok && touch other.txt', 'ask'],
    ['echo ok; $(touch x)', 'ask'],
    ['echo $(touch x)', 'ask'],
    ['echo ok > out.txt', 'allow'],
    ['echo ok > /tmp/elsewhere.txt', 'ask'],
    ['echo ok 2>&1 >/dev/null', 'allow'],
    ['timeout 5 echo ok', 'allow']
  ])('allow Bash(echo:*): %j -> %s', async (command, expected) => {
    const { run } = setup({ allow: ['Bash(echo:*)'] })
    expect(await run(command)).toBe(expected)
  })

  it('a line allowed by several rules names each', async () => {
    const { verdict } = setup({ allow: ['Bash(echo:*)', 'Bash(touch *)'] })
    expect(await verdict('echo ok && touch other.txt')).toEqual({
      action: 'allow',
      reason: `allowed by the rule "Bash(echo:*)" (permissions.allow[0] in ${project}) and the rule "Bash(touch *)" (permissions.allow[1] in ${project})`
    })
  })
})

describe('a line that cannot be read', () => {
  it('is never allowed by a rule: it asks, saying why', async () => {
    const { verdict } = setup({ allow: ['Bash(echo:*)', 'Bash'] })
    const answer = await verdict('echo ok && $CMD x')
    expect(answer.action).toBe('ask')
    expect(answer.reason).toMatch(/^cannot read the command: its command name is computed when it runs: \$CMD x; Bash can change files/)
  })

  it('asks even in never-ask when a deny rule might hide in it', async () => {
    const { verdict, run } = setup({ deny: ['Bash(rm:*)'] }, { mode: 'never-ask' })
    const answer = await verdict('eval "rm -rf x"')
    expect(answer.action).toBe('ask')
    expect(answer.reason).toBe(`cannot read the command: \`eval\` runs text built when it runs: eval "rm -rf x" (so the rule "Bash(rm:*)" (permissions.deny[0] in ${project}) cannot be checked)`)
    expect(await run('echo "unbalanced')).toBe('ask')
  })

  it('without rules that read lines, follows the mode: never-ask runs it, dont-ask refuses it', async () => {
    expect(await setup({}, { mode: 'never-ask' }).run('$CMD x')).toBe('allow')
    expect(await setup({ allow: ['Read'] }, { mode: 'dont-ask' }).verdict('$CMD x')).toEqual({ action: 'deny', reason: 'Bash is not pre-approved by an allow rule, and mode "dont-ask" denies instead of asking' })
    const refused = await setup({ allow: ['Bash(ls:*)'] }, { mode: 'dont-ask' }).verdict('$CMD x')
    expect(refused.action).toBe('deny')
    expect(refused.reason).toMatch(/^cannot read the command: its command name is computed/)
  })
})

describe('Read and Edit rules reach the files a Bash command reads and writes', () => {
  it.each([
    ['cat secret.txt', 'deny'],
    ['cat ./secret.txt', 'deny'],
    ['head -n 3 secret.txt', 'deny'],
    ['tail -f secret.txt', 'deny'],
    ['less secret.txt', 'deny'],
    ['grep -n key secret.txt', 'deny'],
    ['rg key secret.txt', 'deny'],
    ["sed -n 1p secret.txt", 'deny'],
    ["awk '{print}' secret.txt", 'deny'],
    ['cp secret.txt copy.txt', 'deny'],
    ['wc -l < secret.txt', 'deny'],
    ['mkdir sub && cd sub && cat ../secret.txt', 'deny'],
    ["bash -c 'cat secret.txt'", 'deny'],
    ['echo ok && cat secret.txt | wc -l', 'deny'],
    ['cat other.txt', 'allow'],
    ['grep secret.txt other.txt', 'allow'],
    ['echo secret.txt', 'allow'],
    ['cat $F', 'ask'],
    ['cat *.txt', 'ask'],
    ['cd $DIR && cat secret.txt', 'ask']
  ])('deny Read(./secret.txt) in never-ask: %j -> %s', async (command, expected) => {
    const { run } = setup({ deny: ['Read(./secret.txt)'] }, { mode: 'never-ask' })
    expect(await run(command)).toBe(expected)
  })

  it('the reason names the part and the file', async () => {
    const { verdict } = setup({ deny: ['Read(./secret.txt)'] }, { mode: 'never-ask' })
    expect(await verdict('echo ok && cat secret.txt')).toEqual({
      action: 'deny',
      reason: `the permission policy denies calls matching "Read(./secret.txt)" (permissions.deny[0] in ${project}): \`cat secret.txt\` reads ${join(ws, 'secret.txt')}`
    })
  })

  it.each([
    ['echo x > locked/a', 'deny'],
    ['echo x >> locked/a', 'deny'],
    ['ls &> locked/log', 'deny'],
    ['echo x | tee -a locked/a', 'deny'],
    ['cp a locked/b', 'deny'],
    ['cp -t locked a b', 'allow'],
    ['mv locked/a b', 'deny'],
    ["sed -i 's/a/b/' locked/a", 'deny'],
    ['rm locked/a', 'deny'],
    ['touch locked/new', 'deny'],
    ['cat locked/a', 'allow'],
    ["sed 's/a/b/' locked/a", 'allow'],
    ['echo x > unlocked/a', 'allow']
  ])('deny Edit(./locked/**) in never-ask: %j -> %s', async (command, expected) => {
    const { run } = setup({ deny: ['Edit(./locked/**)'] }, { mode: 'never-ask' })
    expect(await run(command)).toBe(expected)
  })

  it('Write(...) rules and absolute and home paths work the same way', async () => {
    const { run } = setup({ deny: ['Write(//etc/**)', 'Read(~/.ssh/**)'] }, { mode: 'never-ask' })
    expect(await run('echo x > /etc/hosts')).toBe('deny')
    expect(await run('cat ~/.ssh/id_rsa')).toBe('deny')
    expect(await run('cat /etc/hosts')).toBe('allow')
  })
})

describe('accept-edits runs filesystem commands inside the workspace', () => {
  it.each([
    ['mkdir -p build && touch build/a', 'allow'],
    ['cp a build/b && mv build/b build/c && rm build/c && rmdir build', 'allow'],
    ["sed -i 's/a/b/' src/x.ts", 'allow'],
    ['cd src && touch x', 'allow'],
    ['touch ../lib/shared.txt', 'allow'],
    ['touch /tmp/outside', 'ask'],
    ['touch ../elsewhere/x', 'ask'],
    ['touch a && curl x', 'ask'],
    ['rm -rf $X', 'ask'],
    ['mkdir', 'ask'],
    ['cd /tmp && touch x', 'ask']
  ])('%j -> %s', async (command, expected) => {
    const { run } = setup({ defaultMode: 'acceptEdits', additionalDirectories: ['../lib'] })
    expect(await run(command)).toBe(expected)
  })
})
