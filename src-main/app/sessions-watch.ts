// Sessions other processes write (`seam run` in a terminal, another window, `seam acp`): their
// logs grow and their presence files come and go in this host's sessions folder, with no event
// of this host to say so. A watch on the folder (and on `live/`, the presence files) turns those
// changes into one `sessions/changed` push per THROTTLE_MS, so the Board and the session list
// follow them; changes to the sessions this host holds are its own events already and are skipped.
// A holder killed with -9 writes nothing more, so while another process holds a session its pid
// is checked every HOLDER_CHECK_MS, and its death is pushed too.
import { mkdirSync, readdirSync, watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import { isSessionId } from '../session/ids'
import type { SessionPresence } from '../session/presence'

/** At most one push per this many ms, however many files another process writes. */
const THROTTLE_MS = 300
/** How often the holders of sessions held elsewhere are checked for being alive (only while there are some). */
const HOLDER_CHECK_MS = 1000

export interface SessionsWatchOptions {
  /** The sessions folder (logs `<id>.jsonl`; presence files in `live/<id>.json`). */
  dir: string
  presence: SessionPresence
  /** Whether this host holds the session open (its changes are pushed as its own events). */
  isOwn: (id: string) => boolean
  onChange: () => void
}

/** Starts watching; returns the function that stops. */
export function watchForeignSessions(options: SessionsWatchOptions): () => void {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const push = () => {
    timer ??= setTimeout(() => {
      timer = undefined
      if (!stopped) options.onChange()
    }, THROTTLE_MS)
  }

  /** Sessions another live process holds, and its pid. */
  const held = new Map<string, number>()
  let checking: NodeJS.Timeout | undefined
  const checkHolders = () => {
    for (const id of [...held.keys()]) {
      if (options.presence.holder(id)) continue
      held.delete(id)
      push()
    }
    arm()
  }
  const arm = () => {
    if (held.size > 0 && checking === undefined && !stopped) {
      checking = setInterval(checkHolders, HOLDER_CHECK_MS)
      checking.unref()
    } else if ((held.size === 0 || stopped) && checking !== undefined) {
      clearInterval(checking)
      checking = undefined
    }
  }
  const track = (id: string) => {
    const holder = options.presence.holder(id)
    if (holder) held.set(id, holder.pid)
    else held.delete(id)
    arm()
  }

  const changed = (filename: string | Buffer | null, presenceFile: boolean) => {
    if (stopped) return
    const name = filename?.toString() ?? ''
    if (name === '') return push() // A platform that omits the name: any change counts.
    // Only session logs and presence files: the summary cache and temp files are this host's own writes.
    const id = (presenceFile ? /^(.+)\.json$/ : /^(.+)\.jsonl$/).exec(name)?.[1]
    if (id === undefined || !isSessionId(id) || options.isOwn(id)) return
    if (presenceFile) track(id)
    push()
  }
  const watchers: FSWatcher[] = []
  const live = join(options.dir, 'live')
  for (const [dir, presenceFiles] of [[options.dir, false], [live, true]] as const) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const watcher = watch(dir, { persistent: false }, (_event, filename) => changed(filename, presenceFiles))
      watcher.on('error', () => watcher.close()) // The folder went away: nothing more to follow there.
      watchers.push(watcher)
    } catch {
      // Not watchable here: the Board still refreshes on this host's own events.
    }
  }
  try {
    for (const name of readdirSync(live)) {
      const id = /^(.+)\.json$/.exec(name)?.[1]
      if (id !== undefined && isSessionId(id)) track(id)
    }
  } catch {
    // No presence files yet.
  }
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
    arm()
    for (const watcher of watchers) watcher.close()
  }
}
