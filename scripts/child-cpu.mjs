// CPU time of one step of `npm test` (test-all.mjs), with every process it started. On a shared
// machine wall time says little; CPU seconds say what a step costs, and against its wall seconds
// whether it kept the cores busy or left them waiting.
//
//   node child-cpu.mjs OUT_FILE NODE_ARGS...
//
// runs `node NODE_ARGS...` with this process's stdio, forwards SIGINT/SIGTERM/SIGHUP to it, and
// when it exits writes `{"cpuSeconds": N}` to OUT_FILE and exits as it did. N comes from Linux's
// /proc/self/stat cutime + cstime: the CPU of the child and of every descendant that was waited
// for (Node reaps what it spawns), which is why the step runs under this process and not beside
// the others in test-all. A process reparented before it ends (Chromium's renderers and helpers)
// is not in it: test-all also reads the whole machine's busy time (machineCpuSeconds). Elsewhere
// (no /proc) nothing is written. Plain JavaScript, as test-all.mjs.
import { spawn, execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

let cachedTicks

/** Clock ticks per second of /proc's times (USER_HZ: 100 on every Linux architecture Node ships for), asked of getconf once. */
function ticksPerSecond() {
  if (cachedTicks === undefined) {
    try {
      const answer = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
      cachedTicks = Number.isFinite(answer) && answer > 0 ? answer : 100
    } catch {
      cachedTicks = 100
    }
  }
  return cachedTicks
}

/**
 * CPU seconds (user + system) of this process's children that have been waited for, with their
 * own waited-for descendants, from the text of /proc/self/stat; undefined when it cannot be read.
 */
export function reapedChildrenCpuSeconds(stat, ticks) {
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // Fields 16 and 17 of proc(5) (cutime, cstime); fields[0] is field 3 (state).
  const cutime = Number(fields[13])
  const cstime = Number(fields[14])
  if (!Number.isFinite(cutime) || !Number.isFinite(cstime)) return undefined
  return (cutime + cstime) / ticks
}

/**
 * The whole machine's CPU seconds from the first line of /proc/stat: `busy` (every process,
 * those no step waited for included, such as Chromium's, and the kernel's) and `all` (busy plus
 * idle and I/O wait); undefined when the line cannot be read. Two readings' difference says how
 * busy the cores were between them.
 */
export function machineCpuSeconds(stat, ticks) {
  const line = stat.split('\n', 1)[0]
  if (!line.startsWith('cpu ')) return undefined
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const times = line.trim().split(/\s+/).slice(1, 9).map(Number)
  if (times.length < 8 || times.some((t) => !Number.isFinite(t))) return undefined
  const all = times.reduce((sum, t) => sum + t, 0)
  const idle = times[3] + times[4]
  return { busy: (all - idle) / ticks, all: all / ticks }
}

/** The machine's CPU seconds now (machineCpuSeconds of /proc/stat), or undefined without /proc. */
export function readMachineCpuSeconds() {
  try {
    return machineCpuSeconds(readFileSync('/proc/stat', 'utf8'), ticksPerSecond())
  } catch {
    return undefined
  }
}

function main([outFile, ...args]) {
  const child = spawn(process.execPath, args, { stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('error', (error) => {
    console.error(`could not start node ${args.join(' ')}: ${error.message}`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => {
    let stat
    try {
      stat = readFileSync('/proc/self/stat', 'utf8')
    } catch {
      // not Linux: no figure
    }
    const cpuSeconds = stat === undefined ? undefined : reapedChildrenCpuSeconds(stat, ticksPerSecond())
    if (cpuSeconds !== undefined) writeFileSync(outFile, JSON.stringify({ cpuSeconds }))
    process.exit(code ?? (signal ? 1 : 0))
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2))
