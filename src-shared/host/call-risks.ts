// What makes a tool call dangerous enough that its approval is marked and defaults to Deny: a
// recursive delete, sudo, a download piped into a shell, a force push, a write outside the
// workspace. Read by the desktop dialog (through the host's approval request) and the terminal
// answerer. A heuristic over the command text, not a parser: it errs towards marking, and it only
// changes what the approval shows and which answer is the default, never what is allowed.

/** One reason a call is dangerous, as the approval says it. */
export interface CallRisk {
  kind: 'recursive-delete' | 'sudo' | 'pipe-to-shell' | 'force-push' | 'outside-workspace'
  text: string
}

export interface RiskContext {
  /** The folder the call runs in (relative paths resolve against it). */
  cwd?: string
  /** The workspace root: writes elsewhere are marked. */
  workspace?: string | null
}

/** File-changing tools and the argument naming their target (Claude Code's names). */
const WRITE_TARGETS: Readonly<Record<string, string>> = { Write: 'file_path', Edit: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' }

export function callRisks(tool: string, args: Readonly<Record<string, unknown>>, context: RiskContext = {}): CallRisk[] {
  const risks: CallRisk[] = []
  const targetField = WRITE_TARGETS[tool]
  if (targetField) {
    const target = args[targetField]
    if (typeof target === 'string') {
      const outside = outsideWorkspace(target, context)
      if (outside) risks.push({ kind: 'outside-workspace', text: `writes outside the workspace: ${outside}` })
    }
  }
  if (tool === 'Bash' && typeof args.command === 'string') risks.push(...commandRisks(args.command, context))
  return risks
}

/** The risks of a shell command line, one per kind. */
export function commandRisks(command: string, context: RiskContext = {}): CallRisk[] {
  const found = new Map<CallRisk['kind'], string>()
  const segments = command.split(/&&|\|\||[;\n&|()`]|\$\(/)
  for (const segment of segments) {
    const words = segment.trim().split(/\s+/).filter(Boolean)
    // Leading `VAR=value` assignments and wrappers do not change what runs.
    while (words.length > 0 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!) || WRAPPERS.has(words[0]!))) {
      if (words[0] === 'sudo' || words[0] === 'doas') found.set('sudo', `runs as root (${words[0]})`)
      words.shift()
    }
    const program = words[0]?.replace(/^.*\//, '')
    if (program === 'rm' && words.slice(1).some((w) => /^-[a-zA-Z]*[rR]/.test(w) || w === '--recursive')) {
      found.set('recursive-delete', `recursive delete: ${segment.trim()}`)
    }
    if (program === 'find' && words.includes('-delete')) found.set('recursive-delete', `recursive delete: ${segment.trim()}`)
    if (program === 'git' && words.includes('push') && words.some((w) => w === '-f' || w.startsWith('--force') || /^\+\S/.test(w))) {
      found.set('force-push', `force push: ${segment.trim()}`)
    }
  }
  if (/\b(curl|wget)\b[^;&]*\|\s*(sudo\s+)?(\S*\/)?(ba|z|da|k|fi)?sh\b/.test(command) || /\b(ba|z|da)?sh\b[^;&|]*(<\(|\$\(|`)\s*(curl|wget)\b/.test(command)) {
    found.set('pipe-to-shell', 'runs a downloaded script (curl | sh)')
  }
  // Output redirected into a file outside the workspace.
  for (const match of command.matchAll(/(?:^|[^<>&])\d*>>?(?!&)\s*([^\s;&|<>]+)/g)) {
    const target = match[1]!.replace(/^["']|["']$/g, '')
    if (target.startsWith('/dev/')) continue
    const outside = outsideWorkspace(target, context)
    if (outside) found.set('outside-workspace', `writes outside the workspace: ${outside}`)
  }
  return [...found].map(([kind, text]) => ({ kind, text }))
}

const WRAPPERS = new Set(['sudo', 'doas', 'env', 'nohup', 'time', 'command', 'exec', 'xargs', 'nice'])

/** The absolute target when it lies outside the workspace, else undefined (also when there is no workspace to compare with). */
function outsideWorkspace(target: string, { cwd, workspace }: RiskContext): string | undefined {
  if (!workspace) return undefined
  if (target.startsWith('~')) return target
  const absolute = isAbsolutePath(target) ? target : cwd ? `${cwd}/${target}` : undefined
  if (absolute === undefined) return undefined
  const path = normalize(absolute)
  const root = normalize(workspace)
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`) ? undefined : path
}

function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)
}

/** `..` and `.` resolved, separators unified (no file system access: links are the workspace guard's business). */
function normalize(path: string): string {
  const unified = path.replace(/\\/g, '/')
  const drive = /^[A-Za-z]:/.exec(unified)?.[0] ?? ''
  const parts: string[] = []
  for (const part of unified.slice(drive.length).split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') parts.pop()
    else parts.push(part)
  }
  return `${drive}/${parts.join('/')}`
}
