// A skill's SKILL.md turned into the one message the model gets when it is invoked: a
// `<command-name>` tag (the Skill tool's description tells the model that this tag means the skill
// is already loaded), the arguments, the skill's folder (supporting files are read from there with
// Read on demand), then the body with Claude Code's substitutions:
//   ${CLAUDE_SKILL_DIR}, ${CLAUDE_SESSION_ID}, ${CLAUDE_PROJECT_DIR}, ${CLAUDE_EFFORT}, and for a plugin's skill
//   ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA}; then the arguments: $ARGUMENTS, $ARGUMENTS[N]
//   and $N (0-based), $name (front matter `arguments`), or `ARGUMENTS: …` appended when the body
//   places none (the same code as custom commands);
//   then `` !`cmd` `` lines and ```! blocks run (bash, or PowerShell for `shell: powershell`, in the
//   workspace, through the guarded process service) and are replaced by their output, only in a trusted workspace, and for a skill of the
//   workspace only once the user approved its text (trust pinning, as project commands).
import { replaceShellLines, runShellLine, shellLinesOf, substituteClaude } from '@seam/sdk/node'
import type { Skill } from './discover'

export class SkillError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SkillError'
  }
}

export interface RenderOptions {
  args: string
  sessionId: string
  /** The workspace: `${CLAUDE_PROJECT_DIR}`, and where shell lines run. */
  projectDir: string
  trusted: boolean
  /** For a skill of the workspace: why its shell lines may not run though the workspace is trusted (its text is not approved). */
  notApproved?: string
  /** `${CLAUDE_EFFORT}`: the effort in force once the skill loads (its own, else the turn's); default `medium`, Claude Code's. */
  effort?: string
  /** The environment of shell lines (provider keys already removed). */
  env: Record<string, string>
  /** Runs one shell line; default: the skill's `shell` (bash unless it says powershell) through the guarded process service. */
  runShell?: (command: string, cwd: string) => Promise<string>
}

const SHELL_BLOCK = /^```![ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*$/gm

/** The header that marks a skill's message (and lets a compaction find what was loaded). */
export function skillHeader(name: string, args: string): string {
  return [`<command-name>/${name}</command-name>`, ...(args.trim() ? [`<command-args>${args.trim()}</command-args>`] : [])].join('\n')
}

export async function renderSkill(skill: Skill, options: RenderOptions): Promise<string> {
  const body = substituteClaude(substituteVariables(skill, options), options.args, skill.front.arguments ?? [])
  const expanded = await runShell(skill, body, options)
  return `${skillHeader(skill.name, options.args)}\nBase directory for this skill: ${skill.dir}\n\n${expanded.trim()}\n`
}

/** The shell commands a skill's body runs (inline lines and ```! blocks), for the trust dialog. */
export function skillShellCommands(body: string): string[] {
  return [...shellLinesOf(body), ...[...body.matchAll(SHELL_BLOCK)].map((match) => match[1])]
}

function substituteVariables(skill: Skill, options: RenderOptions): string {
  const values: Record<string, string> = {
    CLAUDE_SKILL_DIR: skill.dir,
    CLAUDE_SESSION_ID: options.sessionId,
    CLAUDE_PROJECT_DIR: options.projectDir,
    CLAUDE_EFFORT: options.effort ?? 'medium',
    ...(skill.plugin ? { CLAUDE_PLUGIN_ROOT: skill.plugin.root, CLAUDE_PLUGIN_DATA: skill.plugin.dataDir } : {}),
    // The plugin's non-sensitive userConfig values (a sensitive one is never given to skills).
    ...Object.fromEntries(Object.entries(skill.plugin?.userConfig ?? {}).map(([key, value]) => [`user_config.${key}`, value]))
  }
  return skill.body.replace(/\$\{(CLAUDE_[A-Z_]+|user_config\.[A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string) => values[name] ?? match)
}

async function runShell(skill: Skill, body: string, options: RenderOptions): Promise<string> {
  const commands = skillShellCommands(body)
  if (commands.length === 0) return body
  if (!options.trusted) throw new SkillError(`skill "${skill.name}" runs shell commands (!\`${commands[0]}\`), which needs a trusted workspace: trust ${options.projectDir} first (nothing was run)`)
  if (options.notApproved) throw new SkillError(`skill "${skill.name}" runs shell commands (!\`${commands[0]}\`): ${options.notApproved} (nothing was run)`)
  const shell = skill.front.shell ?? 'bash'
  const run = options.runShell ?? ((command: string, cwd: string) => runShellLine(command, cwd, options.env, shell))
  const output = async (command: string): Promise<string> => {
    try {
      return await run(command, options.projectDir)
    } catch (error) {
      throw new SkillError(`skill "${skill.name}": the shell command \`${command}\` failed: ${(error as Error).message}`)
    }
  }
  // Blocks first (their text may hold backticks), then the inline lines, each in order.
  let text = body
  const blocks = [...text.matchAll(SHELL_BLOCK)]
  const blockOutputs: string[] = []
  for (const match of blocks) blockOutputs.push(await output(match[1]))
  let index = 0
  text = text.replace(SHELL_BLOCK, () => blockOutputs[index++] ?? '')
  const lines = shellLinesOf(text)
  const lineOutputs: string[] = []
  for (const line of lines) lineOutputs.push(await output(line))
  return replaceShellLines(text, lineOutputs)
}
