import { describe, expect, it } from 'vitest'
import { HeadTailBuffer, truncateMiddle } from './output-limit'

describe('output limits', () => {
  it('truncateMiddle keeps head and tail and counts what was cut', () => {
    expect(truncateMiddle('short', 10)).toBe('short')
    const cut = truncateMiddle('a'.repeat(50) + 'b'.repeat(50), 20)
    expect(cut).toBe(`${'a'.repeat(10)}\n\n... [80 characters truncated] ...\n\n${'b'.repeat(10)}`)
  })

  it('HeadTailBuffer holds bounded memory over many chunks and keeps both ends', () => {
    const buffer = new HeadTailBuffer(10)
    buffer.push('HEAD')
    for (let i = 0; i < 1000; i++) buffer.push('x')
    buffer.push('TAIL!')
    expect(buffer.text()).toBe(`HEADx\n\n... [${4 + 1000 + 5 - 10} characters truncated] ...\n\nTAIL!`)
    const small = new HeadTailBuffer(100)
    small.push('abc')
    small.push('def')
    expect(small.text()).toBe('abcdef')
  })
})
