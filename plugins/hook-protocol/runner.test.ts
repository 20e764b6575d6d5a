// Real processes: every fault the runner must survive, with short timeouts.
import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises'
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCommandHook } from './runner'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hook-runner-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Alive = exists and is not a zombie (a reparented child may never be reaped in a container). */
function isAlive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`
  if (existsSync('/proc/self/stat')) {
    if (!existsSync(stat)) return false
    try {
      const state = readFileSync(stat, 'utf8').replace(/^.*\) /s, '').charAt(0)
      return state !== 'Z' && state !== 'X'
    } catch {
      return false // vanished between the two calls
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntilDead(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!isAlive(pid)) return true
    await new Promise((r) => setTimeout(r, 20))
  }
  return false
}

const EVENT = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })

describe('runCommandHook: hook scripts reading stdin JSON', () => {
  it('runs a bash script that reads tool_input.command', async () => {
    const script = join(dir, 'hook.sh')
    await writeFile(script, '#!/bin/bash\ninput=$(cat)\nif [[ "$input" == *\'"command":"ls"\'* ]]; then echo "saw ls"; fi\necho warn >&2\nexit 3\n')
    await chmod(script, 0o755)
    const result = await runCommandHook({ command: script, stdin: EVENT, shell: '/bin/bash' })
    expect(result).toMatchObject({ handlerType: 'command', exitCode: 3, signal: null, stdout: 'saw ls\n', stderr: 'warn\n' })
    expect(result.failure).toBeUndefined()
  })

  it('runs a python3 script that parses the JSON', async () => {
    const script = join(dir, 'hook.py')
    await writeFile(script, 'import json, sys\nd = json.load(sys.stdin)\nprint(json.dumps({"tool": d["tool_name"], "cmd": d["tool_input"]["command"]}))\n')
    const result = await runCommandHook({ command: `python3 "${script}"`, stdin: EVENT })
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ tool: 'Bash', cmd: 'ls' })
  })

  it('runs a node script that parses the JSON', async () => {
    const script = join(dir, 'hook.mjs')
    await writeFile(
      script,
      "let s=''; process.stdin.on('data', c => s += c); process.stdin.on('end', () => { const d = JSON.parse(s); process.stdout.write(d.hook_event_name) })\n"
    )
    const result = await runCommandHook({ command: `node "${script}"`, stdin: EVENT })
    expect(result).toMatchObject({ exitCode: 0, stdout: 'PreToolUse' })
  })

  it('passes env and cwd, and Codex-style /bin/bash', async () => {
    const result = await runCommandHook({
      command: 'printf "%s|%s|%s" "$HOOK_VAR" "$(pwd)" "${BASH_VERSION:+bash}"',
      stdin: '{}',
      shell: '/bin/bash',
      cwd: dir,
      env: { PATH: process.env.PATH, HOOK_VAR: 'v1' }
    })
    expect(result.stdout).toBe(`v1|${dir}|bash`)
  })
})

describe('runCommandHook: faults', () => {
  it('a missing command is exit 127 from sh, not a runner failure', async () => {
    const result = await runCommandHook({ command: 'definitely-not-a-command-xyz', stdin: '{}' })
    expect(result.exitCode).toBe(127)
    expect(result.failure).toBeUndefined()
    expect(result.stderr).toMatch(/not found/)
  })

  it('a shell syntax error exits 2 (which Claude treats as blocking)', async () => {
    const result = await runCommandHook({ command: 'if then fi', stdin: '{}' })
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toMatch(/syntax error/i)
  })

  it('a missing cwd is a spawn_error', async () => {
    const result = await runCommandHook({ command: 'true', stdin: '{}', cwd: join(dir, 'no-such-dir') })
    expect(result.failure).toBe('spawn_error')
    expect(result.exitCode).toBeNull()
    expect(result.errorMessage).toContain('no-such-dir')
  })

  it('a missing shell is a spawn_error', async () => {
    const result = await runCommandHook({ command: 'true', stdin: '{}', shell: join(dir, 'no-shell') })
    expect(result.failure).toBe('spawn_error')
  })

  it('times out with SIGTERM to the process group', async () => {
    const result = await runCommandHook({ command: 'echo partial; sleep 30', stdin: '{}', timeoutMs: 300 })
    expect(result.failure).toBe('timeout')
    expect(result.exitCode).toBeNull()
    expect(result.signal).toBe('SIGTERM')
    expect(result.stdout).toBe('partial\n')
    expect(result.errorMessage).toMatch(/timed out after 300 ms/)
  })

  it('SIGKILLs a hook that traps and ignores SIGTERM, after the grace', async () => {
    const pidFile = join(dir, 'trap.pid')
    const result = await runCommandHook({
      command: `trap '' TERM; echo $$ > "${pidFile}"; while :; do sleep 0.05; done`,
      stdin: '{}',
      timeoutMs: 300,
      killGraceMs: 200
    })
    expect(result.failure).toBe('timeout')
    expect(result.signal).toBe('SIGKILL')
    const pid = Number((await readFile(pidFile, 'utf8')).trim())
    expect(await waitUntilDead(pid)).toBe(true)
  })

  it('aborting kills the hook', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const result = await runCommandHook({ command: 'sleep 30', stdin: '{}', signal: controller.signal })
    expect(result.failure).toBe('aborted')
    expect(result.signal).toBe('SIGTERM')
  })

  it('an already aborted signal does not start the hook', async () => {
    const marker = join(dir, 'never')
    const result = await runCommandHook({ command: `touch "${marker}"`, stdin: '{}', signal: AbortSignal.abort() })
    expect(result.failure).toBe('aborted')
    expect(existsSync(marker)).toBe(false)
  })

  it('tolerates 1 MB of stdin that the hook never reads', async () => {
    const stdin = JSON.stringify({ blob: 'x'.repeat(1024 * 1024) })
    const immediate = await runCommandHook({ command: 'exit 0', stdin })
    expect(immediate.exitCode).toBe(0)
    expect(immediate.failure).toBeUndefined()
    const late = await runCommandHook({ command: 'sleep 0.1; echo done', stdin })
    expect(late).toMatchObject({ exitCode: 0, stdout: 'done\n' })
  })

  it('drains 50 MB of stdout, keeping the first maxOutputBytes', async () => {
    const result = await runCommandHook({ command: 'head -c 52428800 /dev/zero | tr "\\0" a; echo tail >&2', stdin: '{}' })
    expect(result.exitCode).toBe(0)
    expect(result.stdoutTruncated).toBe(true)
    expect(result.stdout.length).toBe(1024 * 1024)
    expect(result.stdout).toMatch(/^a+$/)
    expect(result).toMatchObject({ stderr: 'tail\n', stderrTruncated: false })
  })

  it('honours a custom maxOutputBytes on each stream', async () => {
    const result = await runCommandHook({ command: 'printf 0123456789; printf abcdefghij >&2', stdin: '{}', maxOutputBytes: 4 })
    expect(result).toMatchObject({ stdout: '0123', stdoutTruncated: true, stderr: 'abcd', stderrTruncated: true })
  })

  it('does not hang on a grandchild that holds stdout open, and kills it', async () => {
    const result = await runCommandHook({ command: 'sleep 30 & echo $!', stdin: '{}', pipeGraceMs: 100 })
    expect(result.exitCode).toBe(0)
    expect(result.failure).toBeUndefined()
    const grandchild = Number(result.stdout.trim())
    expect(grandchild).toBeGreaterThan(0)
    expect(await waitUntilDead(grandchild)).toBe(true)
  })

  it('reads all the output written before the exit, however short the pipe grace (the loop runs timers before it polls the pipes)', async () => {
    // With no grace, the end came on the loop's next turn, before the pipes were read: about 1 run in 125 lost its tail.
    const outputs: string[] = []
    for (let round = 0; round < 40; round++) {
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => runCommandHook({ command: `printf ${i}; sleep 0.01; printf x`, stdin: '{}', pipeGraceMs: 0 })))
      outputs.push(...results.map((result) => result.stdout))
    }
    expect(outputs.filter((stdout, n) => stdout !== `${n % 5}x`)).toEqual([])
  })

  it('leaves a background process alone when it released the pipes', async () => {
    const result = await runCommandHook({ command: 'sleep 2 >/dev/null 2>&1 & echo $!', stdin: '{}', pipeGraceMs: 100 })
    const background = Number(result.stdout.trim())
    expect(isAlive(background)).toBe(true)
    process.kill(background, 'SIGKILL')
  })

  it('decodes invalid UTF-8 with replacement characters', async () => {
    const result = await runCommandHook({ command: "printf '\\377\\376ok'; printf '\\300' >&2", stdin: '{}' })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe('\uFFFD\uFFFDok')
    expect(result.stderr).toBe('\uFFFD')
  })

  it('does not leave a cut multi-byte character at the truncation point', async () => {
    const result = await runCommandHook({ command: "printf 'ab\\342\\202\\254cd'", stdin: '{}', maxOutputBytes: 4 })
    expect(result).toMatchObject({ stdout: 'ab', stdoutTruncated: true })
  })

  it('a timeout beyond the timer range does not fire at once', async () => {
    const result = await runCommandHook({ command: 'sleep 0.05; echo ok', stdin: '{}', timeoutMs: 1e12 })
    expect(result.stdout).toBe('ok\n')
    expect(result.failure).toBeUndefined()
  })

  it('rejects invalid options, naming the field', async () => {
    await expect(runCommandHook({ command: 'true', stdin: '{}', timeoutMs: -1 })).rejects.toThrow(/timeoutMs/)
  })
})
