import { describe, expect, it } from 'vitest'
import { countText } from './count'

describe('countText', () => {
  it('counts nothing in an empty text', () => {
    expect(countText('')).toEqual({ lines: 0, words: 0, chars: 0 })
  })

  it('counts a last line without a newline, and blank lines', () => {
    expect(countText('one two\n\nthree')).toEqual({ lines: 3, words: 3, chars: 14 })
    expect(countText('one two\n')).toEqual({ lines: 1, words: 2, chars: 8 })
  })

  it('splits words on any whitespace and counts code points, not UTF-16 units', () => {
    expect(countText('a\tb  c\r\nd')).toEqual({ lines: 2, words: 4, chars: 9 })
    expect(countText('😀 é')).toEqual({ lines: 1, words: 2, chars: 3 })
  })
})
