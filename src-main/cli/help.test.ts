// `seam --help` (the built CLI as a real process) lists every command the CLI answers, among them
// `skills`, `worktree` and the Claude Code marketplace and plugin commands (issue 29): a command
// added to the CLI's switch without a line in the help fails here.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT, runSeamHeadless, useCliScratch, type CliScratch } from '../../test-support/built-cli'

let dirs: CliScratch
useCliScratch('help', (ready) => {
  dirs = ready
})

/** The top-level commands main.ts dispatches on (`case 'x':` of its command switch). */
function dispatchedCommands(): string[] {
  const source = readFileSync(join(REPO_ROOT, 'src-main', 'cli', 'main.ts'), 'utf8')
  const start = source.indexOf('switch (command)')
  expect(start, 'main.ts dispatches on `switch (command)`').toBeGreaterThan(0)
  const body = source.slice(start, source.indexOf('\n  }\n', start))
  return [...body.matchAll(/case '([a-z-]+)':/g)].map((m) => m[1])
}

describe('seam --help (issue 29)', () => {
  it('lists every command, skills, worktree and the marketplace commands, and exits 0', async () => {
    const result = await runSeamHeadless(['--help'], { cwd: dirs.workspace, home: dirs.home })
    expect(result.code).toBe(0)
    const help = result.stdout + result.stderr
    const commands = dispatchedCommands()
    expect(commands).toEqual(expect.arrayContaining(['run', 'plugin', 'skills', 'worktree']))
    for (const command of [...commands, 'acp']) expect(help, `seam ${command}`).toMatch(new RegExp(`^  seam ${command}\\b`, 'm'))
    expect(help).toMatch(/^ {2}seam skills \[--json\]/m)
    expect(help).toMatch(/^ {2}seam worktree list \| diff ID \| commit ID/m)
    expect(help).toMatch(/^ {2}seam plugin marketplace add SOURCE \| list \| update \[NAME\] \| remove NAME/m)
    expect(help).toMatch(/^ {2}seam plugin install NAME@MARKETPLACE \| update \| enable \| disable \| uninstall NAME@MARKETPLACE/m)
    // -h is the same help.
    const short = await runSeamHeadless(['-h'], { cwd: dirs.workspace, home: dirs.home })
    expect(short.stdout + short.stderr).toBe(help)
  })
})
