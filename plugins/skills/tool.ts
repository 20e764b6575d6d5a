// The `Skill` tool, Claude Code's name and input (`skill`, `args`). Its result is
// `Launching skill: <name>`; the skill's rendered SKILL.md follows as one message of its own (a
// `skill/loaded` event appended after the step's tool results, so results stay adjacent, S17).
import { z } from 'zod'
import { defineTool, type ToolOutput } from '@seam/sdk'

/**
 * Seam's words (Claude Code's own description is not reproduced): the contract it states is Claude
 * Code's: skills are listed in system reminders, `skill` takes a listed name (plugin skills as
 * `plugin:skill`), and a `<command-name>` tag in the conversation means the skill is already loaded.
 */
export const SKILL_TOOL_DESCRIPTION = [
  'Run a skill in the main conversation: it loads the skill\'s instructions, which you then follow.',
  '',
  'Skills package know-how for particular tasks. The skills you can use are listed in system-reminder messages in the conversation, each with what it is for.',
  'When the user\'s request matches a listed skill, call this tool before doing anything else about the request, rather than only mentioning the skill.',
  'When the user refers to a slash command ("/name"), that is a skill too: call this tool with its name.',
  '',
  'Input:',
  '- `skill`: the skill\'s name exactly as listed, e.g. `skill: "pdf"`; a plugin\'s skill has its plugin\'s name in front, e.g. `skill: "my-plugin:pdf"`.',
  '- `args` (optional): what follows the name when typed as a command, e.g. `skill: "review-pr", args: "123"`.',
  '',
  'Notes:',
  '- Only use skills that are listed. Do not use this tool for the harness\'s own commands (/help, /clear, /compact, /model, /usage).',
  '- A <command-name> tag in the conversation means that skill is already loaded and its instructions are there: follow them instead of calling this tool again.',
  '- A skill\'s supporting files (references, scripts) sit in the folder named by "Base directory for this skill": read or run them when its instructions say so.'
].join('\n')

export const SkillInputSchema = z
  .object({
    skill: z.string().min(1).describe('The skill\'s name, as listed (e.g. "pdf", "review-pr", or "my-plugin:pdf")'),
    args: z.string().optional().describe('Optional arguments for the skill')
  })
  .strict()
export type SkillInput = z.infer<typeof SkillInputSchema>

export const launchingText = (name: string): string => `Launching skill: ${name}`

export function skillTool(invoke: (input: SkillInput, exec: { sessionId: string; token: string; signal: AbortSignal }) => Promise<ToolOutput>) {
  return defineTool({
    name: 'Skill',
    description: SKILL_TOOL_DESCRIPTION,
    inputSchema: SkillInputSchema,
    // Loading instructions changes nothing; a skill's own shell lines are gated by workspace trust.
    sideEffects: false,
    execute: (input, exec) => invoke(input, exec)
  })
}
