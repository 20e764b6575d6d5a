// Optional CPU profiles for finding what a slow measure spends its time on: with
// SEAM_BENCH_UI_PROFILE=<folder>, the UI bench records the page's JavaScript (CDP Profiler) around
// the first open of the 10k-event session and around the stream, writes `<name>.cpuprofile`
// there (open it in Chrome DevTools' Performance panel) and prints the functions with the most
// self time on stderr. Without the variable it does nothing.
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
  }
}

/** The `limit` functions with the most self time, one per line: ms, name, place. */
export function topSelfTime(profile: CpuProfile, limit: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = 0; i < samples.length; i++) {
    const frame = byId.get(samples[i])?.callFrame
    if (!frame) continue
    const file = frame.url.split('/').pop() ?? ''
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000)
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${key}`)
    .join('\n')
}
