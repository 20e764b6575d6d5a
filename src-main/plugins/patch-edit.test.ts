import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { setEntryDisabled } from './patch-edit'

describe('setEntryDisabled', () => {
  it('starts a patch file when there is none', () => {
    expect(parse(setEntryDisabled('', 'hooks-codex', true))).toEqual([{ id: 'hooks-codex', disabled: true }])
  })

  it('keeps other rows and comments, and flips its own row in place', () => {
    const text = '# my tweaks\n- id: tool-timeout\n  config: { defaultTimeoutMs: 1000 }\n- id: hooks-codex\n  disabled: true\n'
    const next = setEntryDisabled(text, 'hooks-codex', false)
    expect(next).toContain('# my tweaks')
    expect(parse(next)).toEqual([{ id: 'tool-timeout', config: { defaultTimeoutMs: 1000 } }, { id: 'hooks-codex', disabled: false }])
  })

  it('appends a row when the last row for the id does something else', () => {
    const next = setEntryDisabled('- id: tools\n  config: {}\n', 'tools', true)
    expect(parse(next)).toEqual([{ id: 'tools', config: {} }, { id: 'tools', disabled: true }])
  })

  it('refuses a file that is not a list of rows', () => {
    expect(() => setEntryDisabled('id: tools\n', 'tools', true)).toThrow(/not a YAML list/)
  })
})
