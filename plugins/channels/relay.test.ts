// The permission relay's texts (Claude Code's channels reference, "Permission request fields").
import { describe, expect, it } from 'vitest'
import { describeCall, inputPreview, newRequestId, RELAY_MAX_CODE_POINTS, sanitize } from './relay'

describe('permission relay texts', () => {
  it('request ids are five lowercase letters without l, never one already open', () => {
    const taken = new Set<string>()
    for (let i = 0; i < 200; i++) {
      const id = newRequestId((candidate) => taken.has(candidate))
      expect(id).toMatch(/^[a-km-z]{5}$/)
      expect(taken.has(id)).toBe(false)
      taken.add(id)
    }
  })

  it('removes direction overrides and invisible characters, makes lookalikes plain and folds whitespace', () => {
    expect(sanitize('rm\u202E -rf\u200B /tmp\n\n\t x')).toBe('rm -rf /tmp x')
    expect(sanitize('\u201Cquoted\u201D \u2018one\u2019 \uFF1Ctag\uFF1E')).toBe('"quoted" \'one\' <tag>')
  })

  it('keeps a long value whole at its start and end around a counted marker', () => {
    const long = 'a'.repeat(2000) + 'b'.repeat(2000)
    const out = sanitize(long)
    expect([...out].length).toBeLessThanOrEqual(RELAY_MAX_CODE_POINTS)
    expect(out.startsWith('aaaa')).toBe(true)
    expect(out.endsWith('bbbb')).toBe(true)
    const kept = [...out.replace(/ ⋯ \d+ code points elided ⋯ /, '')].length
    expect(out).toContain(` ⋯ ${4000 - kept} code points elided ⋯ `)
    expect(sanitize('x'.repeat(RELAY_MAX_CODE_POINTS))).toBe('x'.repeat(RELAY_MAX_CODE_POINTS))
  })

  it('input_preview is the arguments as JSON, each top-level value sanitized on its own', () => {
    expect(JSON.parse(inputPreview({ command: 'ls\u202E -la', timeout: 5, nested: { a: [1] } }))).toEqual({ command: 'ls -la', timeout: '5', nested: '{"a":[1]}' })
  })

  it("description: Bash's own description or `Run shell command`; another tool's description argument, else the reason", () => {
    expect(describeCall('Bash', { command: 'npm test', description: 'Run the tests' }, 'x')).toBe('Run the tests')
    expect(describeCall('Bash', { command: 'npm test' }, 'x')).toBe('Run shell command')
    expect(describeCall('Write', { file_path: 'a' }, 'Write wants to change a')).toBe('Write wants to change a')
  })
})
