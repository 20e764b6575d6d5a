// Ending a child's whole tree, per platform. On Linux and macOS every child Seam starts leads its
// own process group, and a signal to the group reaches the tree. Windows has no process groups a
// signal can reach: `taskkill /T /F` ends the process and every process it started (what the
// tree-kill package and Claude Code do there). `/F` always: console programs ignore the polite
// close taskkill sends without it, so SIGTERM and SIGKILL are one thing on Windows.
import { spawnSync, type SpawnOptions } from 'node:child_process'

/** taskkill's arguments for ending the tree led by `pid`. */
export function taskkillArgs(pid: number): string[] {
  return ['/PID', String(pid), '/T', '/F']
}

/**
 * Sends `signal` to the tree led by `pid` (its process group; on Windows, taskkill /T /F).
 * False when nothing of it was left (or taskkill failed).
 */
export function signalTree(pid: number, signal: NodeJS.Signals, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return spawnSync('taskkill', taskkillArgs(pid), { stdio: 'ignore', windowsHide: true }).status === 0
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    // ESRCH: every member of the group has already exited.
    return false
  }
}

/**
 * How a child starts so `signalTree` can end it: the leader of a new process group on POSIX. On
 * Windows `detached` would give it a console window of its own instead; it is not needed there
 * (taskkill follows the parent links) and no window is shown.
 */
export function treeSpawnOptions(platform: NodeJS.Platform = process.platform): Pick<SpawnOptions, 'detached' | 'windowsHide'> {
  return platform === 'win32' ? { detached: false, windowsHide: true } : { detached: true }
}
