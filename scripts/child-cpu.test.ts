// `npm test`'s CPU figure per step (child-cpu.mjs): the parse of /proc/self/stat, and a real child
// that burns a known amount of CPU (counted by its own process.cpuUsage, so the machine's load
// does not matter) in a grandchild, which the figure must include, with the exit code passed on.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { machineCpuSeconds, readMachineCpuSeconds, reapedChildrenCpuSeconds } from './child-cpu.mjs'

const WRAPPER = join(import.meta.dirname, 'child-cpu.mjs')

it('reads cutime and cstime (fields 16 and 17) after a command name holding spaces and parentheses', () => {
  const stat = '4242 (node (a) b) S 1 4242 4242 0 -1 4194560 100 200 0 0 150 20 310 45 20 0 11 0 123 456 789'
  expect(reapedChildrenCpuSeconds(stat, 100)).toBeCloseTo(3.55)
  expect(reapedChildrenCpuSeconds('1 (x) S 1', 100)).toBeUndefined()
})

it.skipIf(!existsSync('/proc/self/stat'))('counts the CPU of the child and of the processes it waited for, and exits with its code', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'seam-child-cpu-'))
  try {
    const out = join(dir, 'cpu.json')
    // The child runs a grandchild that burns 0.4 s of its own CPU, burns 0.2 s itself, then exits 3.
    const burn = (ms: number) => `const t = process.cpuUsage(); while (process.cpuUsage(t).user + process.cpuUsage(t).system < ${ms * 1000}) {}`
    const child = `require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(burn(400))}]); ${burn(200)}; process.exit(3)`
    const wrapper = spawn(process.execPath, [WRAPPER, out, '-e', child], { stdio: 'ignore' })
    const code = await new Promise<number | null>((resolve) => wrapper.on('exit', resolve))
    expect(code).toBe(3)
    const { cpuSeconds } = JSON.parse(await readFile(out, 'utf8')) as { cpuSeconds: number }
    // At least what was burnt (less a clock tick each), and not a wild figure.
    expect(cpuSeconds).toBeGreaterThanOrEqual(0.58)
    expect(cpuSeconds).toBeLessThan(30)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

it('reads the machine\'s busy and total CPU from /proc/stat\'s first line (idle and I/O wait are not busy)', () => {
  const stat = 'cpu  1000 50 300 5000 200 10 40 0 0 0\ncpu0 500 25 150 2500 100 5 20 0 0 0\n'
  // busy = user + nice + system + irq + softirq + steal; all adds idle and iowait.
  expect(machineCpuSeconds(stat, 100)).toEqual({ busy: 14, all: 66 })
  expect(machineCpuSeconds('intr 1 2 3\n', 100)).toBeUndefined()
  expect(machineCpuSeconds('cpu  1 2 x 4 5 6 7 8\n', 100)).toBeUndefined()
})

it.skipIf(!existsSync('/proc/stat'))('the machine\'s figures grow with work done meanwhile, busy never above all', () => {
  const before = readMachineCpuSeconds()
  const t = process.cpuUsage()
  while (process.cpuUsage(t).user < 200_000) {}
  const after = readMachineCpuSeconds()
  expect(before && after).toBeTruthy()
  // In hundredths of a second (/proc/stat's ticks), as the seconds' floating point differences
  // can be a rounding apart when every core was busy and busy equals all.
  const busy = Math.round((after!.busy - before!.busy) * 100)
  const all = Math.round((after!.all - before!.all) * 100)
  // This process alone burnt 0.2 s; a tick short at each end at most.
  expect(busy).toBeGreaterThanOrEqual(18)
  expect(busy).toBeLessThanOrEqual(all)
})
