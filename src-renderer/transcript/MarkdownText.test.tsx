// @vitest-environment happy-dom
import { cleanup, render, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { MarkdownText } from './MarkdownText'

afterEach(cleanup)

declare global {
  var __pwned: number | undefined
}

describe('MarkdownText', () => {
  it('renders Markdown with code blocks', () => {
    const { container } = render(<MarkdownText text={'# Title\n\nSome **bold** and `code`.\n\n```ts\nconst a = 1\n```\n'} />)
    expect(container.querySelector('h1')?.textContent).toBe('Title')
    expect(container.querySelector('strong')?.textContent).toBe('bold')
    expect(container.querySelector('pre code')?.textContent).toBe('const a = 1')
    expect(container.querySelector('pre code')?.className).toBe('language-ts')
  })

  it('never turns raw HTML into elements: <script> and <img onerror> show as text and do not run', () => {
    globalThis.__pwned = 0
    const text = 'Before <script>globalThis.__pwned = 1</script> after\n\n<img src="x" onerror="globalThis.__pwned = 2">\n\n<div onclick="x()">block</div>'
    const { container } = render(<MarkdownText text={text} />)
    expect(container.querySelector('script')).toBeNull()
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('div[onclick]')).toBeNull()
    expect(container.querySelector('[onerror]')).toBeNull()
    expect(container.textContent).toContain('<script>globalThis.__pwned = 1</script>')
    expect(container.textContent).toContain('<img src="x" onerror="globalThis.__pwned = 2">')
    expect(globalThis.__pwned).toBe(0)
  })

  it('drops javascript: URLs and opens links outside the app', () => {
    const { container } = render(<MarkdownText text={'[bad](javascript:alert(1)) and [good](https://example.com)'} />)
    const links = [...container.querySelectorAll('a')]
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['', 'https://example.com'])
    expect(links[1].getAttribute('rel')).toBe('noopener noreferrer')
    expect(links[1].getAttribute('target')).toBe('_blank')
  })

  it('shows Markdown images as text instead of loading them', () => {
    const { container } = render(<MarkdownText text={'![diagram](https://example.com/a.png)'} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toContain('[image: diagram]')
  })

  it('renders GitHub-flavoured tables, strikethrough, task lists and autolinks (remark-gfm)', () => {
    const text = '| a | b |\n| - | - |\n| 1 | 2 |\n\n~~gone~~ and https://example.com\n\n- [x] done\n- [ ] todo'
    const { container } = render(<MarkdownText text={text} />)
    expect([...container.querySelectorAll('table th')].map((th) => th.textContent)).toEqual(['a', 'b'])
    expect([...container.querySelectorAll('table td')].map((td) => td.textContent)).toEqual(['1', '2'])
    expect(container.querySelector('del')?.textContent).toBe('gone')
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com')
    const boxes = [...container.querySelectorAll<HTMLInputElement>('input[type=checkbox]')]
    expect(boxes.map((box) => box.checked)).toEqual([true, false])
  })

  it('highlights a fenced block with both theme colours once its grammar loads, and keeps the text exact', async () => {
    const code = 'const answer: number = 42 // why'
    const { container } = render(<MarkdownText text={'```ts\n' + code + '\n```'} />)
    await waitFor(() => expect(container.querySelector('.md-code')?.getAttribute('data-highlighted')).toBe('true'), { timeout: 10_000 })
    const spans = [...container.querySelectorAll<HTMLElement>('pre code span[style]')]
    expect(spans.length).toBeGreaterThan(3)
    expect(spans.every((span) => span.style.getPropertyValue('--code-light') && span.style.getPropertyValue('--code-dark'))).toBe(true)
    expect(container.querySelector('pre code')?.textContent).toBe(code)
    expect(container.querySelector('button')?.getAttribute('aria-label')).toBe('Copy ts code')
  })

  it('keeps a streaming block highlighted as it grows: the new text shows plain until its tokens come, never out of order', async () => {
    const start = 'const answer = 42'
    const { container, rerender } = render(<MarkdownText text={'```ts\n' + start} />)
    await waitFor(() => expect(container.querySelector('.md-code')?.getAttribute('data-highlighted')).toBe('true'), { timeout: 10_000 })
    const grown = start + '\nexport const more = answer + 1'
    rerender(<MarkdownText text={'```ts\n' + grown} />)
    // Before the fresh tokens: the old part keeps its colours, the code reads exactly as sent.
    expect(container.querySelector('.md-code')?.getAttribute('data-highlighted')).toBe('false')
    expect(container.querySelectorAll('pre code span[style]').length).toBeGreaterThan(0)
    expect(container.querySelector('pre code')?.textContent).toBe(grown)
    await waitFor(() => expect(container.querySelector('.md-code')?.getAttribute('data-highlighted')).toBe('true'))
    expect(container.querySelector('pre code')?.textContent).toBe(grown)
  })

  it('leaves a block in an unknown language as plain text with a Copy button', async () => {
    const { container } = render(<MarkdownText text={'```nosuchlang\nplain words\n```'} />)
    expect(container.querySelector('pre code')?.textContent).toBe('plain words')
    expect(container.querySelector('.md-code')?.getAttribute('data-highlighted')).toBe('false')
    expect(container.querySelector('button')?.textContent).toBe('Copy')
  })
})
