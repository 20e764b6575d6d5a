// kill -9 during the older-git merge check (git before 2.38 has no `merge-tree --write-tree`, so
// Seam tries the merge in a scratch worktree in the temp folder): the built `seam` as a real
// process, the real git behind a wrapper that says 2.37 and parks inside the scratch merge, a
// real SIGKILL, then the next Seam start removes the scratch folder and git's entry for it.
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic, type AnthropicRequestBody } from '../../test-support/fake-anthropic.mjs'
import { SEAM_BIN, runSeamHeadless, useCliScratch, type CliResult } from '../../test-support/built-cli'
import { git, makeRepo, repoState } from '../../plugins/worktrees/test-repo'
import { isAlive, waitFor, waitUntilDead } from '../process/liveness'

let home: string
let scratch: string
useCliScratch('worktree-merge-kill', (dirs) => ({ home, workspace: scratch } = dirs))

/** A model that writes the file its prompt names ("write <file> <text>"), then says done. */
function writer(body: AnthropicRequestBody) {
  const last = body.messages[body.messages.length - 1]
  if (Array.isArray(last.content) && last.content.some((block) => block.type === 'tool_result')) return { text: 'done' }
  const prompt = typeof last.content === 'string' ? last.content : last.content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('')
  const match = /write (\S+) (.+)$/s.exec(prompt.trim())
  return match ? { text: 'Writing.', toolCalls: [{ name: 'Write', args: { file_path: match[1], content: `${match[2]}\n` } }] } : { text: 'no instructions' }
}

describe('kill -9 during the older-git merge check', () => {
  it('the scratch folder is named by its owner pid; the next start removes a dead owner\'s folder and git\'s entry, and leaves a live owner\'s', async () => {
    const repo = makeRepo(join(scratch, 'project'), { 'README.md': 'hello\n' })
    const temp = join(scratch, 'temp')
    mkdirSync(temp)
    const env = { TMPDIR: temp }
    const seam = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> => runSeamHeadless(args, { cwd: repo, home, env: { ...env, ...extra } })

    const worktree = join(scratch, 'project.worktrees', 'old')
    const server = await startFakeAnthropic([writer, writer])
    let run: CliResult
    try {
      run = await seam(['run', '--workspace', repo, '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'allow', '--json', '--worktree', 'old', `write ${join(worktree, 'new.txt')} from the session`])
    } finally {
      await server.close()
    }
    expect(run.code, run.stderr).toBe(0)
    const id = String((JSON.parse(run.stdout.split('\n')[0]) as { sessionId: string }).sessionId)
    expect((await seam(['worktree', 'commit', id, '--workspace', repo])).code).toBe(0)
    const before = repoState(repo)

    // git 2.37 for Seam (so the check uses a scratch worktree); the real git does the work, except
    // that the merge inside the scratch worktree parks (its pid noted) until it is killed.
    const bin = join(scratch, 'old-git')
    mkdirSync(bin)
    const marker = join(scratch, 'merge.pid')
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "git version 2.37.1"; exit 0; fi\nif [ "$1" = "merge" ]; then echo $$ > ${marker}; exec sleep 120; fi\nexec ${git(repo, '--exec-path').trim()}/git "$@"\n`
    )
    chmodSync(join(bin, 'git'), 0o755)
    const child = spawn('setsid', [process.execPath, SEAM_BIN, 'worktree', 'merge', id, '--workspace', repo], {
      cwd: repo,
      env: { ...process.env, ...env, SEAM_HOME: join(home, 'seam'), HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}` },
      stdio: 'ignore'
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').trim() !== '', 60_000, 'the scratch merge to start')
    const mergePid = Number(readFileSync(marker, 'utf8').trim())
    const [holder, ...others] = readdirSync(temp).filter((name) => name.startsWith(`seam-merge-check-${child.pid}-`))
    expect(others).toEqual([])
    expect(existsSync(join(temp, holder, 'tree', 'README.md'))).toBe(true)
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(join(temp, holder, 'tree'))

    process.kill(child.pid!, 'SIGKILL')
    await exited
    // The host-death watcher ends git's group; the scratch folder and git's entry stay behind.
    expect(await waitUntilDead(mergePid, 20_000)).toBe(true)
    expect(isAlive(mergePid)).toBe(false)
    expect(existsSync(join(temp, holder, 'tree'))).toBe(true)

    // A check another Seam is running right now (its owner, this test process, is alive).
    const live = join(temp, `seam-merge-check-${process.pid}-live`)
    mkdirSync(join(live, 'tree'), { recursive: true })

    // The next Seam start (any command that loads the plugin) sweeps the dead owner's folder.
    const listed = await seam(['worktree', 'list', '--workspace', repo])
    expect(listed.code, listed.stderr).toBe(0)
    expect(existsSync(join(temp, holder))).toBe(false)
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(holder)
    expect(repoState(repo)).toEqual(before)
    expect(existsSync(join(live, 'tree'))).toBe(true)
  }, 180_000)
})
