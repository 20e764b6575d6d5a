// Main-thread tasks of the page from a Chromium trace (CDP Tracing, through Playwright): every
// task the renderer's main thread ran, whatever its length (the Long Tasks API only reports those
// over 50 ms, and a timer probe mistakes other processes' load for our work).
import type { Browser, Page } from 'playwright-core'

const CATEGORIES = ['toplevel', 'disabled-by-default-devtools.timeline', '__metadata']
// With SEAM_BENCH_UI_DETAIL=1 (or SEAM_BENCH_UI_PROFILE) set, also what ran inside the tasks
// (scripts, style, layout, paint, GC), so the heaviest task can be broken down on stderr.
const DETAIL_CATEGORIES = ['devtools.timeline', 'v8', 'blink.user_timing']
const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask'])

export interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  ts: number
  dur?: number
  /** Thread (CPU) time of the event, µs, when the trace has it. */
  tdur?: number
  args?: { name?: string }
}

interface Task {
  ts: number
  dur: number
  cpu: number
}

export interface TaskSummary {
  /** Longest task on the page's main thread, ms (wall time: what a user waits). */
  longest: number
  /**
   * Longest thread CPU time of a task, ms: on a machine loaded by other processes a task's wall time
   * includes the time it waited for a core; this does not.
   */
  longestCpu: number
  /**
   * Thread CPU time of the task that was longest by wall time, ms: `longest` over this is how much
   * that task was stretched by waiting (for a core, or on something it blocked on).
   */
  longestTaskCpu: number
  /** Tasks of 50 ms or more. */
  over50: number
  /** The main thread's CPU time over all its tasks, ms (0 when the trace has no thread times). */
  totalCpu: number
  /** All tasks counted. */
  count: number
  /** What the task with the most CPU time spent it on (self CPU time by trace event name, ms), when traced in detail. */
  longestBreakdown?: Record<string, number>
  /**
   * Where the task longest by wall time spent its wall time (self wall / self CPU ms by trace event
   * name), when traced in detail: an event whose wall is far over its CPU waited there.
   */
  longestWallBreakdown?: Record<string, string>
}

/** Traces `page` while `during` runs; returns its main-thread tasks and what `during` returned. */
export async function traceTasks<T>(browser: Browser, page: Page, during: () => Promise<T>): Promise<{ tasks: TaskSummary; result: T }> {
  const detail = Boolean(process.env.SEAM_BENCH_UI_DETAIL || process.env.SEAM_BENCH_UI_PROFILE)
  await browser.startTracing(page, { categories: detail ? [...CATEGORIES, ...DETAIL_CATEGORIES] : CATEGORIES })
  let result: T
  try {
    result = await during()
  } catch (error) {
    await browser.stopTracing().catch(() => undefined)
    throw error
  }
  const buffer = await browser.stopTracing()
  const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[]
  return { tasks: summarizeTasks(Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [], detail), result }
}

/**
 * Tasks of the renderer main thread (`CrRendererMain`) that ran the most: the bench has one page
 * open, so that is its thread (a spare renderer sits idle). Nested task events (a task entered
 * from inside another) count once, as their outermost task.
 */
export function summarizeTasks(events: readonly TraceEvent[], breakdown = false): TaskSummary {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`))
  const byThread = new Map<string, Task[]>()
  for (const e of events) {
    if (e.ph !== 'X' || !TASK_NAMES.has(e.name) || e.dur === undefined) continue
    const key = `${e.pid}:${e.tid}`
    if (!mains.has(key)) continue
    let list = byThread.get(key)
    if (!list) byThread.set(key, (list = []))
    list.push({ ts: e.ts, dur: e.dur, cpu: e.tdur ?? 0 })
  }
  let busiest: Task[] = []
  let busiestTotal = -1
  for (const list of byThread.values()) {
    const total = list.reduce((sum, task) => sum + task.dur, 0)
    if (total > busiestTotal) [busiest, busiestTotal] = [list, total]
  }
  const outermost: Task[] = []
  for (const task of [...busiest].sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
    const last = outermost[outermost.length - 1]
    if (last && task.ts < last.ts + last.dur) continue // inside `last`
    outermost.push(task)
  }
  const ms = outermost.map((task) => task.dur / 1000)
  const longestByWall = outermost.reduce<Task | undefined>((max, task) => (max && max.dur >= task.dur ? max : task), undefined)
  const summary: TaskSummary = {
    longest: ms.reduce((max, d) => Math.max(max, d), 0),
    longestCpu: outermost.reduce((max, task) => Math.max(max, task.cpu / 1000), 0),
    longestTaskCpu: (longestByWall?.cpu ?? 0) / 1000,
    over50: ms.filter((d) => d >= 50).length, count: ms.length,
    totalCpu: outermost.reduce((sum, task) => sum + task.cpu / 1000, 0) }
  // The task broken down is the one with the most CPU time (the longest by wall time, when the
  // trace has no thread times): on a loaded machine the longest by wall time mostly waited.
  const weight = (task: Task) => task.cpu || task.dur
  const heaviest = outermost.reduce<Task | undefined>((max, task) => (max && weight(max) >= weight(task) ? max : task), undefined)
  const thread = [...byThread.entries()].find(([, list]) => list === busiest)?.[0]
  if (breakdown && heaviest && thread) {
    const self = selfTimes(events, thread, heaviest, (e) => (e.tdur ?? e.dur!) / 1000)
    const parts: Record<string, number> = Object.fromEntries(
      Object.entries(self)
        .filter(([, ms]) => ms >= 1)
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => [name, round1(ms)])
    )
    parts['(task itself)'] = round1((heaviest.cpu || heaviest.dur) / 1000 - Object.values(self).reduce((a, b) => a + b, 0))
    if (Object.keys(self).length > 0) summary.longestBreakdown = parts
  }
  if (breakdown && longestByWall && thread) {
    const wall = selfTimes(events, thread, longestByWall, (e) => e.dur! / 1000)
    const cpu = selfTimes(events, thread, longestByWall, (e) => (e.tdur ?? 0) / 1000)
    const parts: Record<string, string> = {}
    for (const [name, w] of Object.entries(wall).sort((a, b) => b[1] - a[1])) if (w >= 1) parts[name] = `${round1(w)} wall / ${round1(cpu[name] ?? 0)} cpu`
    const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0)
    parts['(task itself)'] = `${round1(longestByWall.dur / 1000 - sum(wall))} wall / ${round1(longestByWall.cpu / 1000 - sum(cpu))} cpu`
    if (Object.keys(wall).length > 0) summary.longestWallBreakdown = parts
  }
  return summary
}

const round1 = (n: number) => Math.round(n * 10) / 10

/**
 * Self time per trace event name inside `task` on `thread`: each event's cost less that of the
 * events nested in it.
 */
function selfTimes(events: readonly TraceEvent[], thread: string, task: Task, cost: (e: TraceEvent) => number): Record<string, number> {
  const inside = events.filter((e) => e.ph === 'X' && e.dur !== undefined && `${e.pid}:${e.tid}` === thread && !TASK_NAMES.has(e.name) && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur)
  const self: Record<string, number> = {}
  const stack: TraceEvent[] = []
  for (const e of inside.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)) {
    while (stack.length > 0 && e.ts >= stack[stack.length - 1].ts + stack[stack.length - 1].dur!) stack.pop()
    const parent = stack[stack.length - 1]
    if (parent) self[parent.name] = (self[parent.name] ?? 0) - cost(e)
    self[e.name] = (self[e.name] ?? 0) + cost(e)
    stack.push(e)
  }
  return self
}
