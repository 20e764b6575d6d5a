// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { MarkdownBlocks } from './MarkdownBlocks'
import { MarkdownText } from './MarkdownText'

afterEach(cleanup)

/** The HTML of the rendered Markdown, without the per-block wrappers and the whitespace between tags. */
function html(container: HTMLElement): string {
  return [...container.querySelectorAll('.markdown')]
    .map((block) => block.innerHTML)
    .join('')
    .replace(/>\s+</g, '><')
    .trim()
}

const samples: Record<string, string> = {
  'paragraphs, emphasis, a fence with blank lines, a table': 'Some **bold** and `code`.\n\n```ts\nconst a = 1\n\nconst b = 2\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\nDone ~~not~~.',
  'a loose list across blank lines': 'Steps:\n\n- first\n- second\n\n- third\n\n  with a second paragraph\n\nAfter the list.',
  'an ordered loose list and indented code': '1. one\n\n2. two\n\nText\n\n    indented code\n\n    more code',
  'headings, quotes, a task list, autolinks': '# Title\n\n> quoted\n\n> another\n\n- [x] done\n- [ ] todo\n\nhttps://example.com and www.example.org\n\n---\n\nSetext\n======',
  'reference links and footnotes': 'See [the docs][d] and a note[^n].\n\n[d]: https://example.com\n\n[^n]: The note.',
  'raw HTML shown as text across blank lines': 'a\n\n<!-- a\n\ncomment -->\n\n<div>\n\nx\n\n</div>'
}

describe('MarkdownBlocks (issue 17: streaming with no task over 50 ms parses Markdown block by block)', () => {
  for (const [name, text] of Object.entries(samples)) {
    it(`renders ${name} as the whole text renders`, () => {
      const whole = render(<MarkdownText text={text} />).container
      const blocks = render(<MarkdownBlocks text={text} />).container
      expect(html(blocks)).toBe(html(whole))
      expect(html(blocks)).not.toBe('')
    })
  }

  it('a finished message reuses the blocks its stream parsed: the DOM of unchanged blocks is kept', () => {
    const streamed = 'First paragraph.\n\n- a\n- b\n\nLast'
    const { container, rerender } = render(<MarkdownBlocks text={streamed} />)
    const first = container.querySelector('.markdown p')
    rerender(<MarkdownBlocks text={`${streamed} words.`} />)
    expect(container.querySelector('.markdown p')).toBe(first)
    expect(container.textContent).toContain('Last words.')
  })
})
