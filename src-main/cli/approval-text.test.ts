// What seam run's terminal approval shows of a call (issue 31): Bash as its command line, a
// Write as a unified diff (plain without colour, cut after DIFF_MAX_LINES), risks first.
import { describe, expect, it } from 'vitest'
import { approvalText, DIFF_MAX_LINES, unifiedDiff, wantsColor } from './approval-text'

describe('approvalText', () => {
  it('shows Bash as $ command with its description and folder, marked when dangerous', () => {
    const text = approvalText({ tool: 'Bash', args: { command: 'sudo rm -rf build', description: 'Clean' }, reason: 'runs a command', cwd: '/w' }, { color: false, workspace: '/w' })
    expect(text).toBe(
      '? Bash wants to run (DANGEROUS)\n  ! runs as root (sudo)\n  ! recursive delete: sudo rm -rf build\n  $ sudo rm -rf build\n  # Clean\n  in /w\n  reason: runs a command\n'
    )
  })

  it('names the subagent that asks (issue 27)', () => {
    const text = approvalText({ tool: 'Bash', args: { command: 'ls' }, reason: 'runs a command', agent: { agentId: 'a1', agentType: 'Explore', description: 'Find the config' } }, { color: false })
    expect(text).toBe('? Bash wants to run\n  asked by the Explore subagent ("Find the config")\n  $ ls\n  reason: runs a command\n')
  })

  it('shows other tools as JSON', () => {
    expect(approvalText({ tool: 'mcp__s__t', args: { q: 1 }, reason: 'asks' }, { color: false })).toContain('  {"q":1}\n')
  })
})

describe('unifiedDiff', () => {
  it('is a unified diff with 3 lines of context, and says when there is no change', () => {
    expect(unifiedDiff('/w/a', 'one\ntwo\n', 'one\n2\n')).toEqual(['--- /w/a', '+++ /w/a', '@@ -1,2 +1,2 @@', ' one', '-two', '+2'])
    expect(unifiedDiff('/w/a', '', 'new\n')[0]).toBe('--- /dev/null')
    expect(unifiedDiff('/w/a', 'same\n', 'same\n').at(-1)).toBe('(no change)')
  })

  it(`stops after ${DIFF_MAX_LINES} lines and counts the rest`, () => {
    const after = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n') + '\n'
    const lines = unifiedDiff('/w/big', '', after)
    expect(lines).toHaveLength(DIFF_MAX_LINES + 1)
    expect(lines.at(-1)).toBe(`… ${3 + 300 - DIFF_MAX_LINES} more diff lines`)
  })

  it('colours only a terminal, and never with NO_COLOR', () => {
    const tty = { isTTY: true } as unknown as NodeJS.WritableStream
    expect(wantsColor(tty, {})).toBe(true)
    expect(wantsColor(tty, { NO_COLOR: '1' })).toBe(false)
    expect(wantsColor({} as NodeJS.WritableStream, {})).toBe(false)
    expect(wantsColor({} as NodeJS.WritableStream, { FORCE_COLOR: '1' })).toBe(true)
  })
})
