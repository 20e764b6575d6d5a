// A workspace skill that acts with the user's rights (shell lines, allowed-tools, hooks) is a trust
// item: the trust dialog lists what it runs, and approving the workspace pins its text.
import type { TrustItem } from '@seam/sdk'
import type { Skill } from './discover'
import { skillShellCommands } from './render'

export const TRUST_SOURCE = 'Agent Skills'

export function trustItemOf(skill: Skill): TrustItem | undefined {
  if (!skill.workspaceContent) return undefined
  const commands = skillShellCommands(skill.body)
  const rules = skill.front['allowed-tools'] ?? []
  const hooks = skill.front.hooks
  if (commands.length === 0 && rules.length === 0 && hooks === undefined) return undefined
  const command = [
    ...commands,
    ...(rules.length ? [`allowed-tools: ${rules.join(', ')}`] : []),
    ...(hooks !== undefined ? [`hooks: ${JSON.stringify(hooks)}`] : [])
  ].join('\n')
  // The pinned text: `shell` and `hooks` join it only when set, so skills approved before they existed stay approved.
  const shell = skill.front.shell
  const content = JSON.stringify({ body: skill.body, allowedTools: rules, ...(shell !== undefined && commands.length ? { shell } : {}), ...(hooks !== undefined ? { hooks } : {}) })
  return { source: TRUST_SOURCE, file: skill.file, event: `/${skill.name}`, command, content }
}
