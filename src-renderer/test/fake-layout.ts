// happy-dom has no layout: every element measures 0x0, so a virtualized list shows no rows.
// This gives the transcript's scroller a viewport and each row a height, for component tests.

const VIEWPORT = { width: 800, height: 600 }
const ROW_HEIGHT = 40

export function fakeTranscriptLayout(): () => void {
  const proto = HTMLElement.prototype
  const saved = (['clientHeight', 'clientWidth', 'offsetHeight'] as const).map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)] as const)
  const define = (key: 'clientHeight' | 'clientWidth' | 'offsetHeight', value: (el: HTMLElement) => number) => {
    Object.defineProperty(proto, key, { configurable: true, get(this: HTMLElement) { return value(this) } })
  }
  define('clientHeight', (el) => (el.classList.contains('transcript') ? VIEWPORT.height : 0))
  define('clientWidth', (el) => (el.classList.contains('transcript') ? VIEWPORT.width : 0))
  define('offsetHeight', (el) => (el.classList.contains('transcript-row') ? ROW_HEIGHT : 0))
  return () => {
    for (const [key, descriptor] of saved) {
      if (descriptor) Object.defineProperty(proto, key, descriptor)
      else delete (proto as unknown as Record<string, unknown>)[key]
    }
  }
}
