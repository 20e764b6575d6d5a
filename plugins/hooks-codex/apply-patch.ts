// Codex's apply_patch text, both ways: Seam's Write and Edit calls are shown to hooks as the patch
// Codex's model would have written (codex-hooks.md §4: tool_name `apply_patch`, tool_input
// `{command: <patch>}`), and a patch a hook returns as `updatedInput` is read back into the
// arguments of the same tool.
//
//   *** Begin Patch
//   *** Add File: path            (+ lines)
//   *** Update File: path         (optional "*** Move to: path", then @@ hunks of " ", "-", "+" lines)
//   *** Delete File: path
//   *** End Patch

export type PatchLine = { op: ' ' | '-' | '+'; text: string }

export type PatchOp =
  | { kind: 'add'; path: string; lines: string[] }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; hunks: PatchLine[][] }

const BEGIN = '*** Begin Patch'
const END = '*** End Patch'

/** Lines of a text; a final newline does not start another line. */
export function textLines(text: string): string[] {
  if (text === '') return []
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')
}

export function addFilePatch(path: string, content: string): string {
  return [BEGIN, `*** Add File: ${path}`, ...textLines(content).map((line) => `+${line}`), END].join('\n')
}

export function updateFilePatch(path: string, removed: string, added: string): string {
  return [BEGIN, `*** Update File: ${path}`, '@@', ...textLines(removed).map((line) => `-${line}`), ...textLines(added).map((line) => `+${line}`), END].join('\n')
}

export function parsePatch(text: string): { ok: true; ops: PatchOp[] } | { ok: false; error: string } {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop()
  while (lines.length > 0 && lines[0].trim() === '') lines.shift()
  if (lines[0]?.trim() !== BEGIN) return { ok: false, error: `the patch must start with "${BEGIN}"` }
  if (lines.length < 2 || lines[lines.length - 1].trim() !== END) return { ok: false, error: `the patch must end with "${END}"` }
  const body = lines.slice(1, -1)
  const ops: PatchOp[] = []
  let current: PatchOp | undefined
  for (let i = 0; i < body.length; i++) {
    const line = body[i]
    const header = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/.exec(line)
    if (header) {
      const [, kind, path] = header
      if (kind === 'Move to') {
        if (current?.kind !== 'update' || current.hunks.length > 0 || current.moveTo !== undefined) return { ok: false, error: `line ${i + 2}: "*** Move to" must follow "*** Update File"` }
        current.moveTo = path.trim()
        continue
      }
      current = kind === 'Add File' ? { kind: 'add', path: path.trim(), lines: [] } : kind === 'Delete File' ? { kind: 'delete', path: path.trim() } : { kind: 'update', path: path.trim(), hunks: [] }
      ops.push(current)
      continue
    }
    if (line === '*** End of File') continue
    if (current === undefined) return { ok: false, error: `line ${i + 2}: expected a file header ("*** Add File: ...")` }
    if (current.kind === 'add') {
      if (!line.startsWith('+')) return { ok: false, error: `line ${i + 2}: every line of an added file must start with "+"` }
      current.lines.push(line.slice(1))
    } else if (current.kind === 'delete') {
      return { ok: false, error: `line ${i + 2}: a deleted file has no content lines` }
    } else if (line.startsWith('@@')) {
      current.hunks.push([])
    } else {
      const op = line === '' ? ' ' : line[0]
      if (op !== ' ' && op !== '-' && op !== '+') return { ok: false, error: `line ${i + 2}: a hunk line must start with " ", "-" or "+"` }
      if (current.hunks.length === 0) current.hunks.push([]) // the first hunk may omit its "@@"
      current.hunks[current.hunks.length - 1].push({ op, text: line.slice(1) })
    }
  }
  if (ops.length === 0) return { ok: false, error: 'the patch changes no file' }
  return { ok: true, ops }
}

/** The text a hunk expects before (`-` and context lines) and leaves after (`+` and context lines). */
export function hunkSides(hunk: readonly PatchLine[]): { before: string[]; after: string[] } {
  return {
    before: hunk.filter((line) => line.op !== '+').map((line) => line.text),
    after: hunk.filter((line) => line.op !== '-').map((line) => line.text)
  }
}
