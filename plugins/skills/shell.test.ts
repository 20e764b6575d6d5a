// A skill's `shell` (issue 29): its `` !`cmd` `` lines run with bash unless it says `powershell`,
// then with PowerShell's `-Command` through the same guarded process service. PowerShell is not
// on this machine, so a `pwsh` script on PATH that prints the arguments it got stands in for it
// (the one piece that is not ours); bash is real.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SkillFinder } from './discover'
import { renderSkill } from './render'
import { put, skillFile } from './test-host'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-skill-shell-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

async function skillNamed(name: string, front: string, body: string) {
  const workspace = join(root, 'ws')
  await mkdir(join(workspace, '.git'), { recursive: true })
  await put(join(workspace, '.claude', 'skills', name, 'SKILL.md'), skillFile(front, body))
  const catalog = new SkillFinder().discover({ home: join(root, 'home'), codexHome: join(root, 'codex'), workspace })
  const skill = catalog.skills.find((s) => s.name === name)
  if (!skill) throw new Error(`skill ${name} not found: ${JSON.stringify(catalog.problems)}`)
  return { skill, workspace }
}

const render = (skill: Awaited<ReturnType<typeof skillNamed>>['skill'], workspace: string, env: Record<string, string>) =>
  renderSkill(skill, { args: '', sessionId: 's1', projectDir: workspace, trusted: true, env })

describe('skill shell', () => {
  it('shell: powershell runs the line with pwsh -NoLogo -NoProfile -NonInteractive -Command <line>', async () => {
    const bin = join(root, 'bin')
    await mkdir(bin)
    await writeFile(join(bin, 'pwsh'), '#!/bin/sh\nprintf "pwsh"; for a in "$@"; do printf "|%s" "$a"; done\n')
    await chmod(join(bin, 'pwsh'), 0o755)
    const { skill, workspace } = await skillNamed('ps', 'description: PowerShell state\nshell: powershell', 'Now: !`Get-Date -Format o`')
    const text = await render(skill, workspace, { PATH: `${bin}:${process.env.PATH ?? ''}` })
    expect(text).toContain('Now: pwsh|-NoLogo|-NoProfile|-NonInteractive|-Command|Get-Date -Format o')
  })

  it('without shell (or shell: bash) the line runs in bash; shell: powershell without pwsh fails naming what to install, and nothing runs', async () => {
    const bash = await skillNamed('sh', 'description: Bash state\nshell: bash', 'Shell: !`echo bash-$BASH_VERSION`')
    expect(await render(bash.skill, bash.workspace, { PATH: process.env.PATH ?? '' })).toMatch(/Shell: bash-\d/)
    const ps = await skillNamed('ps2', 'description: PowerShell\nshell: powershell', 'Now: !`Get-Date`')
    await expect(render(ps.skill, ps.workspace, { PATH: join(root, 'empty') })).rejects.toThrow('shell "powershell" needs PowerShell 7 (pwsh) on PATH')
  })

  it('a shell other than bash or powershell is a front-matter problem naming the field', async () => {
    const workspace = join(root, 'ws')
    await mkdir(join(workspace, '.git'), { recursive: true })
    await put(join(workspace, '.claude', 'skills', 'zsh', 'SKILL.md'), skillFile('description: Z\nshell: zsh', 'x'))
    await put(join(workspace, '.claude', 'skills', 'hard', 'SKILL.md'), skillFile('description: H\neffort: extreme', 'x'))
    const catalog = new SkillFinder().discover({ home: join(root, 'home'), codexHome: join(root, 'codex'), workspace })
    expect(catalog.skills).toHaveLength(0)
    expect(catalog.problems.map((p) => p.message).sort()).toEqual([
      expect.stringMatching(/effort.*must be low, medium, high, xhigh or max/),
      expect.stringMatching(/shell.*must be bash or powershell/)
    ])
  })
})
