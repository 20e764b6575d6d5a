// What the UI bench measures inside the page: animation frames (the intervals between them; a
// stall is a long one), long tasks (the Long Tasks API, for time to interactive), and the time
// from a click to text appearing in the transcript. Installed once per page with installProbes.
import type { Page } from 'playwright-core'

export interface FrameStats {
  /** 95th percentile of the intervals between animation frames, ms. */
  p95: number
  longest: number
  frames: number
}

export interface OpenTiming {
  /** Click to the last row in the transcript, one animation frame later. */
  renderMs: number
  /** Click to the end of the last long task (50 ms or more) before a quiet window, or renderMs if later. */
  interactiveMs: number
}

interface Probes {
  framesStart(): void
  framesStop(): FrameStats
  clickAndWait(selector: string, marker: string, timeoutMs: number): Promise<number>
  open(selector: string, marker: string, quietMs: number, timeoutMs: number): Promise<OpenTiming>
}

declare global {
  interface Window {
    __seamBench?: Probes
  }
}

export const TRANSCRIPT = '[role="log"][aria-label="Transcript"]'

export async function installProbes(page: Page): Promise<void> {
  await page.evaluate((transcriptSelector) => {
    const longTasks: { start: number; end: number }[] = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration })
    }).observe({ type: 'longtask' })

    let frameTimes: number[] = []
    let framing = false
    const onFrame = (now: number) => {
      if (!framing) return
      frameTimes.push(now)
      requestAnimationFrame(onFrame)
    }
    const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve))
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

    /** Clicks `selector`; ms until the transcript's text holds `marker` and a frame has begun. */
    async function clickAndWait(selector: string, marker: string, timeoutMs: number): Promise<number> {
      const target = document.querySelector<HTMLElement>(selector)
      if (!target) throw new Error(`nothing matches ${selector}`)
      if ((target as HTMLButtonElement).disabled) throw new Error(`${selector} is disabled`)
      const shown = () => document.querySelector(transcriptSelector)?.textContent?.includes(marker) === true
      const start = performance.now()
      target.click()
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          observer.disconnect()
          reject(new Error(`"${marker}" did not appear within ${timeoutMs} ms of clicking ${selector}`))
        }, timeoutMs)
        const observer = new MutationObserver(() => {
          if (!shown()) return
          observer.disconnect()
          clearTimeout(timer)
          resolve()
        })
        observer.observe(document.body, { subtree: true, childList: true, characterData: true })
      })
      await nextFrame()
      return performance.now() - start
    }

    window.__seamBench = {
      framesStart() {
        frameTimes = []
        framing = true
        requestAnimationFrame(onFrame)
      },
      framesStop() {
        framing = false
        const gaps = frameTimes.slice(1).map((t, i) => t - frameTimes[i]).sort((a, b) => a - b)
        const p95 = gaps.length === 0 ? 0 : gaps[Math.min(gaps.length - 1, Math.ceil(gaps.length * 0.95) - 1)]
        return { p95, longest: gaps[gaps.length - 1] ?? 0, frames: frameTimes.length }
      },
      clickAndWait,
      async open(selector, marker, quietMs, timeoutMs) {
        const start = performance.now()
        const renderMs = await clickAndWait(selector, marker, timeoutMs)
        // Interactive once no long task has run for quietMs (TTI's quiet window, shortened).
        for (;;) {
          const lastEnd = longTasks.filter((t) => t.end > start).reduce((max, t) => Math.max(max, t.end), start + renderMs)
          if (performance.now() - lastEnd >= quietMs) return { renderMs, interactiveMs: lastEnd - start }
          if (performance.now() - start > timeoutMs) throw new Error(`the page was not quiet for ${quietMs} ms within ${timeoutMs} ms`)
          await sleep(25)
        }
      }
    }
  }, TRANSCRIPT)
}

export function probes(page: Page) {
  return {
    framesStart: () => page.evaluate(() => window.__seamBench!.framesStart()),
    framesStop: () => page.evaluate(() => window.__seamBench!.framesStop()),
    clickAndWait: (selector: string, marker: string, timeoutMs: number) =>
      page.evaluate(([s, m, t]) => window.__seamBench!.clickAndWait(s, m, t), [selector, marker, timeoutMs] as const),
    open: (selector: string, marker: string, quietMs: number, timeoutMs: number) =>
      page.evaluate(([s, m, q, t]) => window.__seamBench!.open(s, m, q, t), [selector, marker, quietMs, timeoutMs] as const)
  }
}
