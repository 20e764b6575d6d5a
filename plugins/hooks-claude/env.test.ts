import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { execFormCommand, expandHeaders, hookEnv, parseEnvFile, shellQuote } from './env'

describe('CLAUDE_ENV_FILE parsing', () => {
  it('reads export lines with bare, single- and double-quoted values; skips the rest without running it', () => {
    const text = [
      '# comment',
      'export A=1',
      'export B="two words \\"quoted\\" \\$HOME"',
      "export C='single $HOME'",
      'D=plain # trailing comment',
      'echo not an assignment',
      'export E="unterminated',
      ''
    ].join('\n')
    const { assignments, skipped } = parseEnvFile(text)
    expect(assignments).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'two words "quoted" $HOME' },
      { name: 'C', value: 'single $HOME' },
      { name: 'D', value: 'plain' }
    ])
    expect(skipped).toEqual(['echo not an assignment', 'export E="unterminated'])
  })
})

describe('hook environment', () => {
  it("is Seam's environment plus the session's, CLAUDE_PROJECT_DIR, CLAUDECODE, the session id and CLAUDE_ENV_FILE when given", () => {
    const env = hookEnv({ sessionEnv: { FROM_SESSION: 'x' }, projectDir: '/p', sessionId: 's1', cwd: '/p/sub', envFile: '/tmp/e' })
    expect(env).toMatchObject({ FROM_SESSION: 'x', CLAUDE_PROJECT_DIR: '/p', CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 's1', PWD: '/p/sub', CLAUDE_ENV_FILE: '/tmp/e' })
    expect(env.PATH).toBe(process.env.PATH)
    expect(hookEnv({ projectDir: '/p', sessionId: 's', cwd: '/p' }).CLAUDE_ENV_FILE).toBeUndefined()
  })
})

describe('exec form and headers', () => {
  it('quotes every word, expands ${VAR} and keeps $VAR literal (claude-code-hooks.md §2.2)', () => {
    const command = execFormCommand('printf', ['%s|%s|%s', '${GREETING}', "$GREETING it's"], { GREETING: 'hi there' })
    const out = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', env: { GREETING: 'ignored' } })
    expect(out.stdout).toBe("hi there|$GREETING it's|")
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`)
  })

  it('expands only allowed variables in header values', () => {
    expect(expandHeaders({ Authorization: 'Bearer $TOKEN', X: '${SECRET}' }, ['TOKEN'], { TOKEN: 't', SECRET: 's' })).toEqual({ Authorization: 'Bearer t', X: '${SECRET}' })
  })
})
