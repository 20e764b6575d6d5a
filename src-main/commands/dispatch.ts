// A message typed in the composer or given to `seam run`: a built-in command runs here, a custom
// command is expanded and sent (the typed text and its expansion travel together), anything
// else goes to the model as it is. An unknown `/name` is refused (Claude Code answers "Unknown
// slash command" too); text whose first word is a path (`/usr/bin/env …`) is not a command.
import { homedir } from 'node:os'
import type { Kernel } from '../../src-shared/kernel'
import { usageTotals } from '../../src-shared/session/usage-totals'
import { runCompact } from '../agent/commands'
import type { Agent } from '../agent'
import type { PromptOrigin } from '../agent/inbox'
import { PROVIDER_PRESETS } from '../llm/presets'
import type { HostRuntime } from '../app/runtime'
import { CommandError, expandCommand } from './expand'
import { resolveModelName } from './model-alias'
import { commandSet, helpText, parseSlash, type CommandSet } from './registry'
import { commandTrustItem } from './trust'
import type { PluginCommand, PluginCommandResult, SlashCommandProvider } from '../../src-shared/host/slash-commands'
import { trustItemHash } from '../security/trust-pins'
import { backgroundTasksOf, sessionTasks, tasksText } from '../app/background-tasks'

export interface CommandSession {
  id: string
  agent: Agent
  workspace: string
}

export type DispatchResult =
  /** Not a command: the caller sends the text to the model. */
  | { kind: 'prompt' }
  /** A custom command was expanded and queued. */
  | { kind: 'sent'; name: string; queued: 'turn' | 'steering' }
  /** A built-in ran (or, for `/compact` not awaited, started); `message` is what it has to say. */
  | { kind: 'builtin'; name: string; ok: boolean; message: string; sessionId?: string }

export interface DispatchOptions {
  source: PromptOrigin
  /** Wait for `/compact` to finish (the CLI); the UI gets the outcome as a notice. */
  awaitCompaction: boolean
}

/** The commands a session's workspace offers now (read from disk at each call); `kernel` brings its plugins' commands (skills). */
export function sessionCommands(runtime: HostRuntime, workspace: string | null, kernel?: Kernel): CommandSet {
  const env = runtime.options.env ?? process.env
  const providers = kernel?.getService('slashCommands')?.providers()
  // The enabled Claude Code plugins' command files (`/plugin:command`).
  const plugins = workspace === null ? [] : (kernel?.getService('claudePlugins')?.list(workspace) ?? [])
  return commandSet({ workspace, env, home: env.HOME || homedir(), ...(providers ? { providers } : {}), plugins: plugins.map((p) => ({ name: p.name, paths: p.commands, vars: { ...p.env, ...userConfigVars(p.userConfig) } })) })
}

export async function dispatch(runtime: HostRuntime, session: CommandSession, text: string, options: DispatchOptions): Promise<DispatchResult> {
  const parsed = parseSlash(text)
  if (!parsed) return { kind: 'prompt' }
  const { name, args } = parsed
  const reply = (ok: boolean, message: string, sessionId?: string): DispatchResult => ({ kind: 'builtin', name, ok, message, ...(sessionId ? { sessionId } : {}) })
  switch (name) {
    case 'compact': {
      const running = runCompact(session.agent, args)
      if (!options.awaitCompaction) return reply(true, 'Compacting the conversation…')
      const outcome = await running
      return reply(outcome.ok, outcome.message)
    }
    case 'clear': {
      // The new session's SessionStart says `clear`; the caller ends this one (endClearedSession) once it has said so here.
      const created = await runtime.sessions.create(session.workspace, undefined, 'clear')
      return reply(true, `New session ${created.log.id} in ${session.workspace}`, created.log.id)
    }
    case 'model':
      return modelCommand(runtime, args, reply)
    case 'usage':
      return reply(true, usageText(session.agent))
    case 'tasks':
      return reply(true, tasksText(sessionTasks(backgroundTasksOf(await runtime.kernelOf(session.workspace)), session.id, session.agent.handle.events)))
    case 'help':
      return reply(true, helpText(sessionCommands(runtime, session.workspace, session.agent.kernel)))
  }
  const set = sessionCommands(runtime, session.workspace, session.agent.kernel)
  const contributed = set.plugin.get(name)
  if (contributed) return runPluginCommand(runtime, session, contributed, { name, args, text, source: options.source })
  const command = set.custom.get(name)
  if (!command) {
    const problem = set.problems.find((p) => p.name === name)
    if (problem) throw new CommandError(`/${name} cannot be used: ${problem.file}: ${problem.message}`)
    throw new CommandError(`Unknown slash command: /${name} (/help lists the commands)`)
  }
  const item = commandTrustItem(command)
  const approved = !item || runtime.approvedHashes(session.workspace).has(trustItemHash(item, session.workspace))
  const content = await expandCommand(command, args, {
    workspace: session.workspace,
    trusted: runtime.isTrusted(session.workspace),
    ...(approved ? {} : { notApproved: `${command.file} is new or changed since the workspace's items were approved; review and approve it in the workspace's trust dialog` }),
    env: runtime.keys.childEnv({ ...process.env, ...(runtime.options.env ?? {}) })
  })
  if (!content.trim()) throw new CommandError(`/${name} expands to an empty prompt (${command.file})`)
  const model = command.model ? modelFor(runtime, command.model, `/${name} (${command.file}): model`) : undefined
  const { queued } = session.agent.send(text.trim(), options.source, {
    content,
    command: { name, args, source: command.source },
    ...(model ? { model } : {}),
    ...(command.allowedTools ? { allowedTools: command.allowedTools } : {})
  })
  return { kind: 'sent', name, queued }
}

/** A plugin's command (a skill): the plugin expands it, or runs it itself and says what happened. */
async function runPluginCommand(
  runtime: HostRuntime,
  session: CommandSession,
  { command, provider }: { command: PluginCommand; provider: SlashCommandProvider },
  typed: { name: string; args: string; text: string; source: PromptOrigin }
): Promise<DispatchResult> {
  const { name, args } = typed
  const where = command.file ?? command.origin
  if (command.userInvocable === false) throw new CommandError(`/${name} can only be used by the model (user-invocable: false in ${where})`)
  let result: PluginCommandResult
  try {
    result = await provider.invoke({ sessionId: session.id, workspace: session.workspace, name, args, typed: typed.text.trim() })
  } catch (error) {
    throw new CommandError((error as Error).message)
  }
  if (result.kind === 'done') return { kind: 'builtin', name, ok: result.ok, message: result.message }
  if (!result.content.trim()) throw new CommandError(`/${name} expands to an empty prompt (${where})`)
  const model = result.model ? modelFor(runtime, result.model, `/${name} (${where}): model`) : undefined
  const { queued } = session.agent.send(typed.text.trim(), typed.source, {
    content: result.content,
    command: { name, args, source: result.source },
    ...(model ? { model } : {}),
    ...(result.allowedTools?.length ? { allowedTools: [...result.allowedTools] } : {})
  })
  return { kind: 'sent', name, queued }
}

/**
 * After `/clear`: the session it replaced ends, with SessionEnd's reason `clear`, as Claude Code's
 * does; one whose turn is still running is left to finish (it ends later like any session).
 */
export async function endClearedSession(runtime: HostRuntime, session: CommandSession): Promise<void> {
  if (session.agent.state.running) return
  await runtime.sessions.close(session.id, 'clear')
}

/** A command's `model` with Claude Code's aliases resolved for the provider in use; `what` names it in an error. */
function modelFor(runtime: HostRuntime, model: string, what: string): string {
  try {
    return resolveModelName(model, runtime.providerSettings()?.provider, runtime.settings.value.models)
  } catch (error) {
    throw new CommandError(`${what}: ${(error as Error).message}`)
  }
}

function usageText(agent: Agent): string {
  const t = usageTotals(agent.handle.events)
  const tokens = (n: number) => n.toLocaleString('en-US')
  const fill = t.contextWindow ? `${tokens(t.contextTokens)} of ${tokens(t.contextWindow)} tokens (${Math.round((t.contextTokens / t.contextWindow) * 100)}%)` : `${tokens(t.contextTokens)} tokens (context window unknown)`
  return [
    `Requests: ${t.requests}`,
    `Input tokens: ${tokens(t.inputTokens)} (cached ${tokens(t.cachedInputTokens)})`,
    `Output tokens: ${tokens(t.outputTokens)} (reasoning ${tokens(t.reasoningTokens)})`,
    `Cost: $${t.costUsd.toFixed(4)}${t.unpriced > 0 ? ` (${t.unpriced} request(s) without a price)` : ''}`,
    `Context: ${fill}`
  ].join('\n')
}

/**
 * `/model` shows the provider and model; `/model NAME` switches the model of the provider in use;
 * `/model PRESET/NAME` (a preset id: deepseek, openai, …) switches provider too (not in a headless
 * run, whose provider comes from the command line). The desktop keeps the choice in its settings;
 * a headless run changes it for the run.
 */
function modelCommand(runtime: HostRuntime, args: string, reply: (ok: boolean, message: string) => DispatchResult): DispatchResult {
  const current = runtime.providerSettings()
  if (!args) return reply(true, current ? `Model: ${current.model} (provider ${current.provider}, ${current.baseUrl})` : 'No model provider is configured: choose one in Settings (or pass --provider).')
  const slash = args.indexOf('/')
  const prefix = slash > 0 ? args.slice(0, slash) : ''
  const preset = Object.hasOwn(PROVIDER_PRESETS, prefix) ? (prefix as keyof typeof PROVIDER_PRESETS) : undefined
  const named = preset ? args.slice(slash + 1) : args
  if (!named) throw new CommandError('/model needs a model name after the preset (e.g. /model deepseek/deepseek-chat)')
  const model = resolveModelName(named, preset ?? current?.provider, runtime.settings.value.models)
  if (runtime.options.mode === 'headless' || runtime.options.provider) {
    if (preset && preset !== current?.provider) throw new CommandError(`/model ${args}: this run's provider is ${current?.provider ?? 'none'}; choose another provider with --provider`)
    runtime.setModel(model)
    return reply(true, `Model: ${model} (for this run)`)
  }
  if (!current && !preset) throw new CommandError('/model: no provider is configured; name one as /model PRESET/MODEL or choose it in Settings')
  const provider = preset ?? current!.provider
  const baseUrl = current && current.provider === provider ? current.baseUrl : (PROVIDER_PRESETS[provider].baseUrl ?? '')
  runtime.settings.update({ provider: { provider, baseUrl, model } })
  const keyNote = PROVIDER_PRESETS[provider].needsApiKey && !runtime.keyBoundTo(provider, baseUrl) ? ` (no ${provider} API key is stored: add it in Settings)` : ''
  return reply(true, `Model: ${model} (provider ${provider})${keyNote}`)
}

/** `user_config.KEY` of a plugin's non-sensitive userConfig values, for `${user_config.KEY}` in its commands. */
function userConfigVars(values: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [`user_config.${key}`, value]))
}
