import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatFileSize, HOOK_OUTPUT_INLINE_LIMIT, persistedOutputStub, persistIfLarge } from './persisted-output'

describe('§5 Large outputs: the <persisted-output> stub', () => {
  it('keeps text up to the inline limit as is', () => {
    const text = 'x'.repeat(HOOK_OUTPUT_INLINE_LIMIT)
    expect(persistIfLarge(text, '/nonexistent/never-written')).toBe(text)
  })

  it('saves a 20 KB text and gives the stub with the path and a 2 KB preview cut at a newline', () => {
    const dir = path.join(tmpdir(), `seam-persist-${process.pid}-${Date.now()}`)
    try {
      const line = `${'a'.repeat(99)}\n`
      const text = line.repeat(200)
      const stub = persistIfLarge(text, dir)
      const file = /Full output saved to: (.*)\n/.exec(stub)?.[1] ?? ''
      expect(readFileSync(file, 'utf8')).toBe(text)
      expect(stub).toBe(`<persisted-output>\nOutput too large (19.5KB). Full output saved to: ${file}\n\nPreview (first 2KB):\n${line.repeat(20).slice(0, -1)}\n...\n</persisted-output>`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('cuts the preview at 2000 characters when no newline falls in its second half', () => {
    const stub = persistedOutputStub('y'.repeat(12_000), '/f.txt')
    expect(stub).toBe(`<persisted-output>\nOutput too large (11.7KB). Full output saved to: /f.txt\n\nPreview (first 2KB):\n${'y'.repeat(2000)}\n...\n</persisted-output>`)
  })

  it.each([
    [512, '512 bytes'],
    [2000, '2KB'],
    [20_000, '19.5KB'],
    [3 * 1024 * 1024, '3MB']
  ])('formats %i as %s', (size, text) => {
    expect(formatFileSize(size)).toBe(text)
  })
})
