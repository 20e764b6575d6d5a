import { existsSync, readFileSync } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { backgroundText, bashTool, createBashTool, expectsNoOutput, movesToBackground, type BashStructured } from './bash'
import { makeExec, makeTempDir } from './test-exec'

let dir: string
beforeEach(async () => {
  dir = await makeTempDir()
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

/** A killed process is gone once the kernel has delivered the signal; under load that can lag the kill call a little. */
async function eventuallyGone(pid: number, withinMs = 3000): Promise<boolean> {
  const deadline = Date.now() + withinMs
  while (!processGone(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 20))
  }
  return true
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  // An orphan may linger as a zombie until its new parent reaps it: dead all the same.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}

describe('Bash', () => {
  it('runs in the session directory with exec.env and returns stdout', async () => {
    const out = await bashTool.execute({ command: 'pwd; echo "$SEAM_TEST_VAR"' }, makeExec(dir, { env: { SEAM_TEST_VAR: 'from-env' } }))
    expect(out.isError).toBe(false)
    expect(out.content).toBe(`${dir}\nfrom-env`)
    // Claude Code's Bash tool_response, exactly these keys in this order, stdout without its trailing newline (claude-code-hooks.md §6 PostToolUse).
    expect(JSON.stringify(out.structured)).toBe(JSON.stringify({ stdout: `${dir}\nfrom-env`, stderr: '', interrupted: false, isImage: false, noOutputExpected: false, output: `${dir}\nfrom-env\n` }))
  })

  it('reports the exit code, then stdout, then stderr (Claude Code wording), and flags a non-zero exit as an error', async () => {
    const out = await bashTool.execute({ command: 'echo out; echo err >&2; exit 3' }, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toBe('Exit code 3\nout\nerr')
    const structured = out.structured as BashStructured
    expect(structured).toEqual({ stdout: 'out', stderr: 'err', interrupted: false, isImage: false, noOutputExpected: false, output: expect.any(String) })
    // Written back to back on two pipes, the lines reach the host in either order; the next test spaces them.
    expect(structured.output.split('\n').sort()).toEqual(['', 'err', 'out'])
  })

  it('keeps both streams in the order they arrived in `output` (Codex\'s tool_response, codex-hooks.md §4)', async () => {
    const out = await bashTool.execute({ command: 'echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three' }, makeExec(dir))
    expect((out.structured as BashStructured).output).toBe('one\ntwo\nthree\n')
  })

  it('trims blank lines at both ends of stdout and stderr, keeping indentation (§6 PostToolUse tool_response)', async () => {
    const out = await bashTool.execute({ command: "printf '\\n\\n  indented\\nlast  \\n\\n'; printf '\\nerr\\n' >&2" }, makeExec(dir))
    expect(out.structured).toMatchObject({ stdout: '  indented\nlast  ', stderr: 'err' })
  })

  it.each([
    ['mkdir -p a/b', true],
    ['touch f && chmod +x f', true],
    ["cat > f.ts <<'EOF'\nx\nEOF", true],
    ['cd sub; rm -f x', true],
    ['echo hi', false],
    ['ls | wc -l', false],
    ['echo hi >&2', false],
    ['mkdir x && ls', false]
  ])('noOutputExpected for %j is %s (Claude Code: commands that print nothing when they work)', (command, expected) => {
    expect(expectsNoOutput(command)).toBe(expected)
  })

  it('says so when a command prints nothing', async () => {
    const out = await bashTool.execute({ command: 'true' }, makeExec(dir))
    expect(out).toMatchObject({ content: '(no output)', isError: false })
  })

  it('streams output through progress before the command exits', async () => {
    const marker = path.join(dir, 'go')
    let sawFirstLineBeforeExit = false
    const exec = makeExec(dir, {
      onProgress: (update) => {
        if (update.text.includes('first')) {
          // The command is still waiting for this file: it cannot have exited yet.
          sawFirstLineBeforeExit = true
          void fs.writeFile(marker, '')
        }
      }
    })
    const out = await bashTool.execute({ command: `echo first; while [ ! -e go ]; do sleep 0.05; done; echo second >&2` }, exec)
    expect(sawFirstLineBeforeExit).toBe(true)
    expect(out.content).toBe('first\nsecond')
    expect(exec.updates).toContainEqual({ stream: 'stdout', text: 'first\n' })
    expect(exec.updates).toContainEqual({ stream: 'stderr', text: 'second\n' })
  })

  it('runs a command longer than the 128 KiB argv string limit (passed through a file, not E2BIG)', async () => {
    const filler = 'x'.repeat(300 * 1024)
    const out = await bashTool.execute({ command: `v='${filler}'; echo "\${#v} $0"; exit 4` }, makeExec(dir))
    // Claude Code's wording for a failed command: `Exit code N`, then the output.
    const [first, echoed] = out.content.split('\n')
    expect(first).toBe('Exit code 4')
    expect(echoed).toMatch(/^307200 \/.*command\.sh$/)
    expect((out.structured as BashStructured).stdout).toBe(echoed)
    // The file is private to the run and removed when it ends.
    const script = echoed.split(' ')[1]
    expect(script.startsWith(os.tmpdir())).toBe(true)
    expect(existsSync(script)).toBe(false)
  })

  it('kills the whole process group on abort, grandchildren included', async () => {
    const controller = new AbortController()
    let grandchild = 0
    const exec = makeExec(dir, {
      signal: controller.signal,
      onProgress: (update) => {
        const match = /bg=(\d+)/.exec(update.text)
        if (match) {
          grandchild = Number(match[1])
          controller.abort()
        }
      }
    })
    const out = await bashTool.execute({ command: 'sleep 30 & echo bg=$!; sleep 30; wait' }, exec)
    expect(grandchild).toBeGreaterThan(0)
    expect(processGone(process.pid)).toBe(false)
    expect(out.isError).toBe(true)
    expect(out.content).toContain('Command was aborted.')
    expect((out.structured as BashStructured).interrupted).toBe(true)
    expect(await eventuallyGone(grandchild)).toBe(true)
  })

  it('escalates to SIGKILL for processes that ignore SIGTERM', async () => {
    const controller = new AbortController()
    const tool = createBashTool({ bashKillGraceMs: 200 })
    let straggler = 0
    const exec = makeExec(dir, {
      signal: controller.signal,
      onProgress: (update) => {
        const match = /bg=(\d+)/.exec(update.text)
        if (match) {
          straggler = Number(match[1])
          controller.abort()
        }
      }
    })
    // An ignored SIGTERM is inherited: neither the shell nor its sleep reacts to it.
    const out = await tool.execute({ command: `trap '' TERM; sleep 30 & echo bg=$!; wait` }, exec)
    expect((out.structured as BashStructured).interrupted).toBe(true)
    expect(straggler).toBeGreaterThan(0)
    expect(await eventuallyGone(straggler)).toBe(true)
  })

  it('returns when the shell exits even if a backgrounded job still holds its output pipes', async () => {
    const out = await bashTool.execute({ command: 'sleep 30 & echo bg=$!; echo done' }, makeExec(dir))
    const pid = Number(/bg=(\d+)/.exec(out.content)?.[1])
    expect(out).toMatchObject({ isError: false, content: `bg=${pid}\ndone` })
    process.kill(pid, 'SIGKILL')
  })

  it('kills the command when its timeout passes and says so', async () => {
    const out = await bashTool.execute({ command: 'echo started; sleep 30', timeout: 300 }, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toBe('started\nCommand timed out after 300 ms and was killed.')
    expect((out.structured as BashStructured).interrupted).toBe(true)
  })

  it('does not start a command whose call is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const out = await bashTool.execute({ command: `touch ${path.join(dir, 'ran')}` }, makeExec(dir, { signal: controller.signal }))
    expect(out.isError).toBe(true)
    await expect(fs.access(path.join(dir, 'ran'))).rejects.toThrow()
  })

  it('keeps the head and tail of long output with a truncation marker', async () => {
    const tool = createBashTool({ maxOutputChars: 1000 })
    const out = await tool.execute({ command: `echo BEGIN; head -c 100000 /dev/zero | tr '\\0' x; echo; echo END` }, makeExec(dir))
    expect(out.content.length).toBeLessThan(1200)
    expect(out.content.startsWith('BEGIN')).toBe(true)
    expect(out.content.endsWith('END')).toBe(true)
    expect(out.content).toMatch(/\[\d+ characters truncated\]/)
  })

  it('without the background-tasks service, rejects run_in_background with a clear error', async () => {
    const out = await bashTool.execute({ command: 'echo hi', run_in_background: true }, makeExec(dir))
    expect(out).toMatchObject({ isError: true })
    expect(out.content).toContain('run_in_background is not available: the background-tasks plugin is disabled')
  })

  it.each([
    ['npm run dev', true],
    ['sleep 5 && echo done', false],
    ['  sleep 1', false],
    ['git fetch origin', false],
    ['cd repo && git pull', false],
    ['echo legit-name', true],
    ['./digits', true]
  ])('a command at its timeout is moved to the background unless it starts with sleep or runs git: %s -> %s', (command, moved) => {
    expect(movesToBackground(command)).toBe(moved)
  })

  it('reports a missing working directory instead of a spawn error', async () => {
    const out = await bashTool.execute({ command: 'echo hi' }, makeExec(path.join(dir, 'missing')))
    expect(out.isError).toBe(true)
    expect(out.content).toContain('does not exist')
  })

  it('validates the timeout argument against the maximum', () => {
    expect(bashTool.inputSchema.safeParse({ command: 'ls', timeout: 600_000 }).success).toBe(true)
    expect(bashTool.inputSchema.safeParse({ command: 'ls', timeout: 600_001 }).success).toBe(false)
    expect(bashTool).toMatchObject({ name: 'Bash', sideEffects: true, concurrent: false, timeoutMs: 120_000 })
  })
})

describe('Bash keeps its working directory (Claude Code: the cwd follows cd, within the workspace)', () => {
  it('reports where the shell ended up through exec.moveCwd, keeping the command\'s exit code', async () => {
    await fs.mkdir(path.join(dir, 'sub'))
    const moved: string[] = []
    const exec = { ...makeExec(dir), moveCwd: (to: string) => (moved.push(to), to) }
    const out = await bashTool.execute({ command: 'cd sub && echo in; exit 4' }, exec)
    expect(out.content).toBe('Exit code 4\nin')
    // `exit` leaves the shell before the directory is written: the session stays where it was.
    expect(moved).toEqual([])
    const cd = await bashTool.execute({ command: 'cd sub' }, exec)
    expect(cd.isError).toBe(false)
    expect(moved).toEqual([path.join(dir, 'sub')])
  })

  it('says `Shell cwd was reset to <dir>` when the session refuses a directory outside the workspace', async () => {
    const exec = { ...makeExec(dir), moveCwd: () => dir }
    const out = await bashTool.execute({ command: 'cd / && echo out' }, exec)
    expect(out.content).toBe(`out\nShell cwd was reset to ${dir}`)
  })
})

describe("Bash's background text, as Claude Code's record words it", () => {
  it('a command moved at the default 120 s timeout: the recorded sentence exactly, then the task id and the output file', () => {
    // Copied from the record: "Command did not complete within its 120s timeout and was moved to the background", then the task ID and the output file path.
    const recorded = 'Command did not complete within its 120s timeout and was moved to the background'
    expect(backgroundText('b0123abcd', '/s/x.tasks/b0123abcd.output', 120_000)).toBe(
      `${recorded}.\nCommand running in background with ID: b0123abcd. Output is being written to: /s/x.tasks/b0123abcd.output`
    )
    expect(backgroundText('b0123abcd', '/s/x.tasks/b0123abcd.output')).toBe('Command running in background with ID: b0123abcd. Output is being written to: /s/x.tasks/b0123abcd.output')
  })
})
