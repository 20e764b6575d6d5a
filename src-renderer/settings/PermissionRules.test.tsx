// @vitest-environment happy-dom
// The settings page's list of permission rules in force, against the real Host: Claude Code
// settings files on disk, the real plugins, the real router validating `permissions/list` against
// the contract, and the component rendering what came over it (issue: "the settings page lists the
// rules in force and where each came from"; claude-code-hooks.md §2.1 sources and trust).
import { act, cleanup, render, screen, within } from '@testing-library/react'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Methods, type HostApi, type MethodInput, type MethodName, type MethodOutput } from '../../src-shared/contract/ipc'
import { createHost, type Host } from '../../src-main/app/host'
import { HostProvider } from '../app/host-context'
import { PermissionRules } from './PermissionRules'

let dir: string
let host: Host | undefined
const caller = { transport: 'web' as const }

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-permission-rules-'))
})
afterEach(async () => {
  cleanup()
  await host?.close()
  host = undefined
  await rm(dir, { recursive: true, force: true })
})

/** The UI's HostApi over the real router (what the WebSocket transport does, minus the socket). */
function overRouter(real: Host): HostApi {
  return {
    transport: 'web',
    async invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
      const reply = await real.router.invoke(method, input, caller)
      if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code })
      return reply.output as MethodOutput<M>
    },
    on: () => () => {}
  }
}

async function startWith(files: { user?: unknown; project?: unknown }, trusted: boolean): Promise<{ api: HostApi; ws: string; user: string; project: string }> {
  const home = join(dir, 'home')
  const ws = join(dir, 'ws')
  await mkdir(join(home, '.claude'), { recursive: true })
  await mkdir(join(ws, '.claude'), { recursive: true })
  const user = join(home, '.claude', 'settings.json')
  const project = join(ws, '.claude', 'settings.json')
  if (files.user) await writeFile(user, JSON.stringify(files.user))
  if (files.project) await writeFile(project, JSON.stringify(files.project))
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(dir, 'seam'), HOME: home } })
  const api = overRouter(host)
  await api.invoke('workspace/set', { path: ws })
  if (trusted) await api.invoke('workspace/trust', { trusted: true })
  return { api, ws, user, project }
}

describe('permissions/list and the rules list (contract + UI)', () => {
  it('lists every rule in force with its effect and the file and index it came from, the mode with its origin, and ignored rules', async () => {
    const { api, user, project } = await startWith(
      {
        user: { permissions: { allow: ['Bash(npm run test:*)', 'Bash(oops'], deny: ['Read(./secrets/**)'] } },
        project: { permissions: { ask: ['Bash(git push:*)'], allow: ['mcp__server__*'], defaultMode: 'acceptEdits', additionalDirectories: ['../lib'] } }
      },
      true
    )
    const listed = await api.invoke('permissions/list', {})
    expect(Methods['permissions/list'].output.safeParse(listed).success).toBe(true)
    expect(listed.mode).toEqual({ mode: 'accept-edits', source: 'project', file: project, claudeMode: 'acceptEdits' })

    await act(async () => {
      render(<HostProvider host={api}><PermissionRules /></HostProvider>)
    })
    const table = await screen.findByRole('table', { name: 'Permission rules in force' })
    const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))
    expect(rows).toEqual([
      ['deny', 'Read(./secrets/**)', 'Claude Code user settings', `${user} (permissions.deny[0])`],
      ['ask', 'Bash(git push:*)', 'Claude Code project settings', `${project} (permissions.ask[0])`],
      ['allow', 'Bash(npm run test:*)', 'Claude Code user settings', `${user} (permissions.allow[0])`],
      ['allow', 'mcp__server__*', 'Claude Code project settings', `${project} (permissions.allow[0])`]
    ])
    expect(screen.getByLabelText('Mode in force').textContent).toBe(`Mode in force: accept-edits (from defaultMode: acceptEdits in ${project})`)
    expect(screen.getByLabelText('Additional directories').textContent).toContain(join(dir, 'lib'))
    expect(screen.getByLabelText('Ignored permission settings').textContent).toBe(
      `Claude Code settings: ${user}: permissions.allow[1] invalid permission rule "Bash(oops": expected Tool or Tool(specifier); this rule is ignored`
    )
  })

  it("an untrusted workspace's rules are not listed (nor applied); the user's are", async () => {
    const { api } = await startWith({ user: { permissions: { deny: ['Bash(rm *)'] } }, project: { permissions: { allow: ['Bash'] } } }, false)
    const listed = await api.invoke('permissions/list', {})
    expect(listed.rules.map((rule) => `${rule.behavior} ${rule.rule} ${rule.source}`)).toEqual(['deny Bash(rm *) user'])
    expect(listed.mode).toEqual({ mode: 'ask-side-effects', source: 'seam' })
  })
})
