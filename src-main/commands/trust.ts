// A project command that runs shell lines (`` !`cmd` ``) is a trust item, like a workspace hook:
// the trust dialog lists it, approving the workspace pins its text, and a new or changed command
// does not run its shell lines until the user approves it again.
import { join } from 'node:path'
import type { TrustItem } from '../../src-shared/host/workspace'
import { loadCustomCommands, type CustomCommand } from './custom'
import { shellLinesOf } from './expand'

export const COMMAND_TRUST_SOURCE = 'Claude Code commands'

/** The trust item of a project command with shell lines (undefined for any other command). */
export function commandTrustItem(command: CustomCommand): TrustItem | undefined {
  if (command.source !== 'project') return undefined
  const lines = shellLinesOf(command.body)
  if (lines.length === 0) return undefined
  return { source: COMMAND_TRUST_SOURCE, file: command.file, event: `/${command.name}`, command: lines.join('\n'), content: command.body }
}

/** The workspace's project commands that run shell lines, read from `.claude/commands` now. */
export function projectCommandTrustItems(workspace: string): TrustItem[] {
  const { commands } = loadCustomCommands({ project: join(workspace, '.claude', 'commands') })
  return commands.flatMap((command) => commandTrustItem(command) ?? [])
}
