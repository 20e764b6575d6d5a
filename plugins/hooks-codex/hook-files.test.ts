// Reading hooks.json and config.toml (codex-hooks.md §2.1).
import { describe, expect, it } from 'vitest'
import { parseConfigToml, parseHooksJson, snakeCase } from './hook-files'

const FILE = '/home/u/.codex/hooks.json'

describe('parseHooksJson', () => {
  it('reads handlers with Codex defaults: 600 s timeout, minimum 1 s, async, statusMessage, the hooks.state key', () => {
    const parsed = parseHooksJson(
      FILE,
      JSON.stringify({
        description: 'mine',
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'a' }, { type: 'command', command: 'b', timeout: 0, async: true, statusMessage: 'checking' }] },
            { hooks: [{ type: 'command', command: 'c', timeout: 30, commandWindows: 'c.exe', additionalContextLimit: 0 }] }
          ]
        }
      }),
      600
    )
    expect(parsed.warnings).toEqual([])
    expect(parsed.handlers).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', command: 'a', timeoutSec: 600, async: false, sourceFile: FILE, key: `${FILE}:pre_tool_use:0:0` },
      { event: 'PreToolUse', matcher: 'Bash', command: 'b', timeoutSec: 1, async: true, statusMessage: 'checking', sourceFile: FILE, key: `${FILE}:pre_tool_use:0:1` },
      { event: 'PreToolUse', command: 'c', timeoutSec: 30, async: false, sourceFile: FILE, key: `${FILE}:pre_tool_use:1:0` }
    ])
  })

  it('on Windows a handler\'s commandWindows runs instead of its command; elsewhere, and where it is missing, command does', () => {
    const text = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './check.sh', commandWindows: 'check.cmd' }, { type: 'command', command: './only.sh' }] }] } })
    expect(parseHooksJson(FILE, text, 600, 'win32').handlers.map((h) => h.command)).toEqual(['check.cmd', './only.sh'])
    expect(parseHooksJson(FILE, text, 600, 'linux').handlers.map((h) => h.command)).toEqual(['./check.sh', './only.sh'])
    expect(parseConfigToml('/w/.codex/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "a"\ncommandWindows = "a.exe"\n', 600, 'win32').handlers[0]?.command).toBe('a.exe')
  })

  it('orders a file\'s handlers by Codex\'s canonical event order', () => {
    const parsed = parseHooksJson(
      FILE,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 's' }] }], SessionStart: [{ hooks: [{ type: 'command', command: 'ss' }] }], PostToolUse: [{ hooks: [{ type: 'command', command: 'p' }] }] } }),
      600
    )
    expect(parsed.handlers.map((h) => h.event)).toEqual(['PostToolUse', 'SessionStart', 'Stop'])
  })

  it('drops the whole file for a structural error, naming the field', () => {
    for (const [hooks, field] of [
      [{ hooks: { Stop: { hooks: [] } } }, 'hooks.Stop: expected a list of matcher groups'],
      [{ hooks: { Stop: [{ matcher: 'x' }] } }, 'hooks.Stop[0].hooks:'],
      [{ hooks: { Stop: [{ hooks: [{ type: 'shell', command: 'x' }] }] } }, 'hooks.Stop[0].hooks[0].type:'],
      [{ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: 1.5 }] }] } }, 'hooks.Stop[0].hooks[0].timeout:'],
      [{ hooks: {}, extra: true }, 'extra']
    ] as const) {
      const parsed = parseHooksJson(FILE, JSON.stringify(hooks), 600)
      expect(parsed.handlers).toEqual([])
      expect(parsed.warnings).toHaveLength(1)
      expect(parsed.warnings[0]).toContain(field)
      expect(parsed.warnings[0]).toContain(FILE)
    }
  })

  it('reports invalid JSON', () => {
    expect(parseHooksJson(FILE, '{', 600).warnings[0]).toMatch(/not valid JSON/)
  })
})

describe('parseConfigToml', () => {
  const TOML = '/w/.codex/config.toml'

  it('reads [[hooks.Event]] tables, features and hooks.state; other config is ignored silently', () => {
    const parsed = parseConfigToml(
      TOML,
      [
        'model = "o4"',
        '[features]',
        'hooks = true',
        '[[hooks.PreToolUse]]',
        'matcher = "Bash"',
        '[[hooks.PreToolUse.hooks]]',
        'type = "command"',
        'command = "/path/to/check.sh"',
        'timeout = 30',
        'statusMessage = "Checking command"',
        '[hooks.state."/x/hooks.json:stop:0:0"]',
        'enabled = false',
        'trusted_hash = "sha256:abc"'
      ].join('\n'),
      600
    )
    expect(parsed.warnings).toEqual([])
    expect(parsed.featureHooks).toBe(true)
    expect(parsed.state).toEqual({ '/x/hooks.json:stop:0:0': { enabled: false, trusted_hash: 'sha256:abc' } })
    expect(parsed.handlers).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', command: '/path/to/check.sh', timeoutSec: 30, async: false, statusMessage: 'Checking command', sourceFile: TOML, key: `${TOML}:pre_tool_use:0:0` }
    ])
  })

  it('accepts the deprecated features.codex_hooks with a warning', () => {
    const parsed = parseConfigToml(TOML, '[features]\ncodex_hooks = false\n', 600)
    expect(parsed.featureHooks).toBe(false)
    expect(parsed.warnings[0]).toContain('features.codex_hooks is deprecated')
  })

  it('reports a file that is not TOML', () => {
    const parsed = parseConfigToml(TOML, '[hooks\n', 600)
    expect(parsed.handlers).toEqual([])
    expect(parsed.warnings[0]).toContain('not valid TOML')
  })
})

describe('snakeCase', () => {
  it('spells events as Codex keys them', () => {
    expect(snakeCase('PreToolUse')).toBe('pre_tool_use')
    expect(snakeCase('UserPromptSubmit')).toBe('user_prompt_submit')
    expect(snakeCase('Stop')).toBe('stop')
  })
})
