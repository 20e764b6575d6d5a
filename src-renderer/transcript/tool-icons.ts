// Which icon stands for a tool (by Claude Code's tool names; MCP tools share one) and for a call's
// status. Icons are decoration beside words: the card names the tool and the status in text.
import { Ban, Bot, CircleCheck, CircleDashed, CircleX, Clock, FilePen, FilePlus, FileText, FolderSearch, Globe, ListTodo, LoaderCircle, Plug, Search, ShieldAlert, Terminal, Wrench, type LucideIcon } from '../app/icons'
import type { ToolStatus } from './transcript-types'

const BY_NAME: Record<string, LucideIcon> = {
  Bash: Terminal,
  BashOutput: Terminal,
  KillShell: Terminal,
  Read: FileText,
  Edit: FilePen,
  MultiEdit: FilePen,
  NotebookEdit: FilePen,
  Write: FilePlus,
  Grep: Search,
  Glob: FolderSearch,
  WebFetch: Globe,
  WebSearch: Globe,
  TodoWrite: ListTodo,
  Task: Bot,
  Agent: Bot
}

export function toolIcon(name: string): LucideIcon {
  return BY_NAME[name] ?? (name.startsWith('mcp__') ? Plug : Wrench)
}

export const STATUS_ICON: Record<ToolStatus, LucideIcon> = {
  pending: CircleDashed,
  approval: ShieldAlert,
  running: LoaderCircle,
  done: CircleCheck,
  error: CircleX,
  denied: Ban,
  timeout: Clock,
  cancelled: Ban,
  interrupted: CircleDashed
}
