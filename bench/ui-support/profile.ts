// Optional CPU profiles for finding what a slow measure spends its time on: with
// SEAM_BENCH_UI_PROFILE=<folder>, the UI bench records the page's JavaScript (CDP Profiler) around
// the first open of the 10k-event session and around the stream, writes `<name>.cpuprofile`
// there (open it in Chrome DevTools' Performance panel) and prints the functions with the most
// self time on stderr, over the whole profile and inside its busiest 60 ms (what a long task is
// made of: a function that costs little per call but runs often tops the totals, not the window).
// Without the variable it does nothing.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples?: number[]
  timeDeltas?: number[]
}

export async function profiled<T>(page: Page, name: string, during: () => Promise<T>): Promise<T> {
  const folder = process.env.SEAM_BENCH_UI_PROFILE
  if (!folder) return during()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
  try {
    return await during()
  } finally {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }
    await cdp.detach().catch(() => undefined)
    await mkdir(folder, { recursive: true })
    await writeFile(join(folder, `${name}.cpuprofile`), JSON.stringify(profile))
    process.stderr.write(`profile ${name}: top self time\n${topSelfTime(profile, 25)}\n`)
    process.stderr.write(`profile ${name}: busiest ${BUSIEST_WINDOW_MS} ms, top callers by inclusive time\n${busiestWindow(profile, BUSIEST_WINDOW_MS, 15)}\n`)
  }
}

const BUSIEST_WINDOW_MS = 60
const NOT_WORK = new Set(['(idle)', '(program)', '(root)'])

function frameKey(node: ProfileNode): string {
  const frame = node.callFrame
  const file = frame.url.split('/').pop() ?? ''
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`
}

function formatTop(ms: Map<string, number>, limit: number): string {
  return [...ms.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, value]) => `  ${value.toFixed(1).padStart(8)} ms  ${key}`)
    .join('\n')
}

/** The `limit` functions with the most self time, one per line: ms, name, place. */
export function topSelfTime(profile: CpuProfile, limit: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i])
    if (!node) continue
    const key = frameKey(node)
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000)
  }
  return formatTop(self, limit)
}

/**
 * The `windowMs` of the profile with the most JavaScript running, and the `limit` functions with
 * the most inclusive time in it (each sample counts once for every function on its stack).
 */
export function busiestWindow(profile: CpuProfile, windowMs: number, limit: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  const at: number[] = []
  let clock = 0
  for (let i = 0; i < samples.length; i++) at.push((clock += deltas[i] ?? 0))
  const busy = (i: number) => !NOT_WORK.has(byId.get(samples[i])?.callFrame.functionName ?? '(idle)')
  const cost = (i: number) => (busy(i) ? (deltas[i + 1] ?? 0) : 0)
  let best = -1
  let bestStart = 0
  let sum = 0
  for (let end = 0, start = 0; end < samples.length; end++) {
    sum += cost(end)
    while (at[end] - at[start] > windowMs * 1000) sum -= cost(start++)
    if (sum > best) [best, bestStart] = [sum, start]
  }
  const inclusive = new Map<string, number>()
  for (let i = bestStart; i < samples.length && at[i] - at[bestStart] <= windowMs * 1000; i++) {
    if (!busy(i)) continue
    const seen = new Set<string>()
    for (let id: number | undefined = samples[i]; id !== undefined; id = parentOf.get(id)) {
      const node = byId.get(id)
      if (!node || NOT_WORK.has(node.callFrame.functionName)) continue
      const key = frameKey(node)
      if (seen.has(key)) continue
      seen.add(key)
      inclusive.set(key, (inclusive.get(key) ?? 0) + cost(i) / 1000)
    }
  }
  return `  ${(Math.max(best, 0) / 1000).toFixed(1)} ms of JavaScript in the window\n${formatTop(inclusive, limit)}`
}
