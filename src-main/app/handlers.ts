// Every contract method (src-shared/contract/ipc.ts), implemented on the host runtime. The
// router has validated each input before it reaches a handler.
import { dispatch, endClearedSession, sessionCommands } from '../commands/dispatch'
import type { AppStatus, PermissionsInForce, ProviderInput, ProviderPublic, Settings } from '../../src-shared/contract/ipc'
import type {} from '../../plugins/permission-policy/index'
import type { ProviderConfig } from '../../src-shared/model'
import { PROVIDER_PRESETS, testConnection } from '../llm/presets'
import type { Handlers } from '../transport/router'
import type { ApprovalDialogs } from './approval-dialog'
import type { KeyLookup } from './secrets'
import { HostRuntime, providerKeyName } from './runtime'
import { requireMcp, setMcpEnabled } from './mcp-settings'
import { acceptsImages, modelOptions, PROVIDER_LABELS, selectModel } from './model-options'
import { WorkspaceFileSearch } from './file-search'
import { sessionPage } from './session-pages'
import { oneAtATime, revertTurn, rewindTo, turnChanges } from '../checkpoints/service'
import type { SessionHub } from './sessions'
import { modelTableView, setCompaction, setModelInfo } from './model-table-view'
import { isSafetyEntry } from '../../src-shared/host/safety-entries'
import { worktreeHandlers } from './worktree-handlers'
import { claudePluginHandlers } from './claude-plugin-handlers'
import { outputStyleHandlers } from './output-style-handlers'
import { themeHandlers } from './theme-handlers'
import { expandHome, listFolders } from './folder-browser'
import { backgroundTasksOf, sessionTasks, stopTask, taskTail } from './background-tasks'
import { subagentHandlers } from './subagent-handlers'


export interface HandlerDeps {
  runtime: HostRuntime
  dialogs: ApprovalDialogs
  mode: 'electron' | 'web'
  chooseDirectory?: () => Promise<string | null>
  publishStatus(): void
}

export async function status(runtime: HostRuntime, mode: 'electron' | 'web'): Promise<AppStatus> {
  return {
    version: runtime.version,
    mode,
    seamHome: runtime.paths.home,
    workspace: runtime.workspace(),
    workspaceTrusted: runtime.isTrusted(),
    trustChanges: runtime.plugins.pendingTrustChanges(),
    trustNeeded: runtime.plugins.trustNeeded(),
    provider: await providerPublic(runtime),
    approvalMode: runtime.approvalMode(),
    safetyOff: runtime.plugins.disabledEntries().filter(isSafetyEntry)
  }
}

async function providerPublic(runtime: HostRuntime): Promise<ProviderPublic | null> {
  const provider = runtime.settings.value.provider
  if (!provider) return null
  const key = await storedKey(runtime, provider.provider)
  if (key.state === 'unreadable') return { ...provider, hasKey: false, keyProblem: key.reason }
  // A key saved with another base URL is not this provider's key: it is never sent here.
  return { ...provider, hasKey: key.state === 'stored' && runtime.keyBoundTo(provider.provider, provider.baseUrl) }
}

/** The stored key's state; a damaged secrets file reads as "unreadable" (and is logged), so status still answers. */
async function storedKey(runtime: HostRuntime, provider: string): Promise<KeyLookup> {
  try {
    return await runtime.secrets.lookup(providerKeyName(provider))
  } catch (error) {
    runtime.log({ level: 'error', plugin: 'secrets', message: (error as Error).message, time: Date.now() })
    return { state: 'unreadable', reason: (error as Error).message }
  }
}

function settingsPublic(runtime: HostRuntime): Settings {
  const { approvalMode, maxParallelToolCalls, maxSteps, hookConcurrency, desktopNotifications, idlePromptSeconds, channels } = runtime.settings.value
  return { approvalMode, maxParallelToolCalls, maxSteps, hookConcurrency, desktopNotifications, idlePromptSeconds, channels }
}

/** The permission policy's rules and mode in force, with their origin (the settings page lists them). */
function permissionsInForce(runtime: HostRuntime): PermissionsInForce {
  const policy = runtime.kernel.getService('permissionPolicy')
  if (!policy) return { running: false, mode: null, rules: [], additionalDirectories: [], warnings: [] }
  const state = policy.inForce()
  return {
    running: true,
    mode: state.mode,
    rules: state.rules,
    additionalDirectories: state.additionalDirectories.map(({ path, resolved, source, file, index }) => ({ path, resolved, source, file, index })),
    warnings: state.warnings
  }
}

/**
 * A provider from the UI, with the stored key filled in when the UI left it out, but only for
 * the base URL the key was saved with. Another URL gets no stored key (the caller may be a
 * client plugin or injected script trying to send it elsewhere): `refused` says why.
 */
async function withStoredKey(runtime: HostRuntime, input: ProviderInput): Promise<{ config: ProviderConfig; refused?: string }> {
  const config: ProviderConfig = { provider: input.provider, baseUrl: input.baseUrl, model: input.model, apiKey: input.apiKey || undefined }
  if (input.apiKey !== undefined) return { config }
  const apiKey = await runtime.storedKey(input.provider, input.baseUrl)
  if (apiKey !== undefined) return { config: { ...config, apiKey } }
  const bound = runtime.settings.value.keyBaseUrls[input.provider]
  if (bound !== undefined && (await storedKey(runtime, input.provider)).state === 'stored') {
    return { config, refused: `The stored ${input.provider} key is sent only to ${bound}, the address it was saved with. Enter the key to use ${input.baseUrl}.` }
  }
  return { config }
}

/**
 * The session's log, for a revert or rewind: refused while a turn runs or waits (its tools could
 * change the same files, and a rewind must not cut a turn in half). A preview is always allowed.
 */
async function idleLog(sessions: SessionHub, sessionId: string, preview: boolean | undefined) {
  const { log, agent } = await sessions.open(sessionId)
  const { running, queued } = agent.state
  if (preview !== true && (running || queued > 0)) {
    throw Object.assign(new Error('A turn is running in this session: stop it or let it finish first.'), { code: 'BUSY' })
  }
  return log
}

function requireWorkspace(runtime: HostRuntime): string {
  const workspace = runtime.workspace()
  if (!workspace) throw Object.assign(new Error('Choose a workspace folder first.'), { code: 'NO_WORKSPACE' })
  return workspace
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const { runtime, dialogs } = deps
  const sessions = runtime.sessions
  const fileSearch = new WorkspaceFileSearch()
  return {
    ...worktreeHandlers(runtime, dialogs),
    ...claudePluginHandlers(runtime),
    ...outputStyleHandlers(runtime),
    ...themeHandlers(runtime),
    'app/status': () => status(runtime, deps.mode),

    'workspace/choose': async () => {
      if (!deps.chooseDirectory) throw Object.assign(new Error('No native folder picker in web mode: type the folder path.'), { code: 'UNSUPPORTED' })
      return { path: await deps.chooseDirectory() }
    },
    'folders/list': async (input) => listFolders(input, runtime.userHome()),
    'workspace/set': async ({ path }) => {
      let workspace: string
      try {
        // `~` and `~/x` are the user's home (a typed path in web mode), not the host's working folder.
        workspace = HostRuntime.checkWorkspace(path === '~' || path.startsWith('~/') ? expandHome(path, runtime.userHome()) : path)
      } catch (error) {
        throw Object.assign(error as Error, { code: 'INVALID_INPUT', field: 'path' })
      }
      runtime.settings.update({ workspace })
      await runtime.showWorkspace()
      await runtime.plugins.pinLegacyTrust()
      deps.publishStatus()
      return { path: workspace }
    },
    'workspace/trust-preview': async () => {
      const workspace = runtime.workspace()
      return { workspace, trusted: runtime.isTrusted(), items: workspace ? runtime.plugins.trustPreview(workspace) : [] }
    },
    'workspace/trust': async ({ trusted, approve }) => {
      const workspace = requireWorkspace(runtime)
      const list = new Set(runtime.settings.value.trustedWorkspaces)
      if (trusted) list.add(workspace)
      else list.delete(workspace)
      runtime.settings.update({ trustedWorkspaces: [...list] })
      // Trust is pinned to what the dialog showed (its hashes); untrusting forgets the approvals.
      if (trusted) await runtime.approveTrust(workspace, approve)
      else {
        runtime.plugins.forgetTrust(workspace)
        await runtime.recomposeWorkspace(workspace)
      }
      deps.publishStatus()
      return { ok: true as const }
    },

    'provider/presets': async () =>
      (Object.keys(PROVIDER_PRESETS) as Array<keyof typeof PROVIDER_PRESETS>).map((id) => ({
        id,
        label: PROVIDER_LABELS[id],
        baseUrl: PROVIDER_PRESETS[id].baseUrl ?? '',
        model: PROVIDER_PRESETS[id].model ?? '',
        needsKey: PROVIDER_PRESETS[id].needsApiKey
      })),
    'provider/get': async () => providerPublic(runtime),
    'provider/set': async (input) => {
      if (input.apiKey !== undefined) await runtime.storeKey(input.provider, input.baseUrl, input.apiKey)
      runtime.settings.update({ provider: { provider: input.provider, baseUrl: input.baseUrl, model: input.model } })
      deps.publishStatus()
      return (await providerPublic(runtime))!
    },
    'provider/test': async (input) => {
      const { config, refused } = await withStoredKey(runtime, input)
      if (refused) return { ok: false, message: refused, kind: 'auth' }
      const result = await testConnection(config, undefined, (config) => runtime.createModelClient(config))
      return result.ok ? { ok: true, message: `Connected: ${result.model}` } : { ok: false, message: result.message, kind: result.kind }
    },

    'sessions/list': async () => sessions.store.list(),
    'sessions/search': async (input) => sessions.store.search(input),
    'sessions/create': async ({ title }) => {
      const session = await sessions.create(requireWorkspace(runtime), title)
      return { id: session.log.id }
    },
    'sessions/open': async ({ id, limit }) => {
      const session = await sessions.open(id)
      const { events, nextSeq } = sessionPage(session.log, 1, limit)
      return { id, events, total: session.log.deliveredCount, nextSeq, state: { sessionId: id, ...session.agent.state }, warnings: [...(session.log.warnings ?? [])] }
    },
    'sessions/events': async ({ id, fromSeq, limit }) => sessionPage((await sessions.open(id)).log, fromSeq, limit),
    'sessions/rename': async ({ id, title }) => {
      await sessions.rename(id, title)
      return { ok: true as const }
    },
    'sessions/delete': async ({ id }) => {
      await sessions.delete(id)
      return { ok: true as const }
    },

    'chat/send': async ({ sessionId, content, images }) => {
      const session = await sessions.open(sessionId)
      if (images?.length) {
        // Refused before anything is logged: the composer keeps the message and its images.
        if (!acceptsImages(runtime, session.model.model)) {
          throw Object.assign(
            new Error(`${session.model.model} does not accept images: choose a model that does in the model picker, or remove the images. The message was not sent.`),
            { code: 'NO_VISION', field: 'images' }
          )
        }
        // A prompt with images is a prompt (not a slash command): it goes to the model with them.
        return session.agent.send(content, 'user', undefined, images)
      }
      // Slash commands: built-ins run here (`/compact` in the background: prompts sent meanwhile wait for it), custom ones are expanded and sent.
      let result
      try {
        result = await dispatch(runtime, { id: sessionId, agent: session.agent, workspace: session.workspace }, content, { source: 'user', awaitCompaction: false })
      } catch (error) {
        if ((error as { code?: string }).code === 'COMMAND_ERROR') throw Object.assign(error as Error, { field: 'content' })
        throw error
      }
      if (result.kind === 'prompt') return session.agent.send(content, 'user')
      if (result.kind === 'sent') return { queued: result.queued }
      // What a built-in says stays in the session where it was typed (`/compact` reports its own outcome).
      if (result.name !== 'compact') session.agent.handle.notify(result.ok ? 'info' : 'error', result.message, 'command')
      // The window opens the new session at once; the old one's SessionEnd hooks run meanwhile.
      if (result.name === 'clear' && result.sessionId) {
        endClearedSession(runtime, { id: sessionId, agent: session.agent, workspace: session.workspace }).catch((error: unknown) =>
          runtime.log({ level: 'error', plugin: 'commands', message: `/clear: the session it replaced did not close cleanly: ${(error as Error).message}`, time: Date.now() })
        )
      }
      return { queued: 'turn' as const, command: { name: result.name, ok: result.ok, message: result.message, ...(result.sessionId ? { sessionId: result.sessionId } : {}) } }
    },
    'commands/list': async ({ sessionId }) => {
      const session = sessionId ? await sessions.open(sessionId) : undefined
      const workspace = session ? session.workspace : runtime.workspace()
      const set = sessionCommands(runtime, workspace, session ? session.agent.kernel : runtime.kernel)
      return { commands: set.commands, problems: set.problems.map(({ name, file, field, message, source }) => ({ name, file, message, source, ...(field !== undefined ? { field } : {}) })), notices: set.notices }
    },
    'model/options': async ({ sessionId }) => modelOptions(runtime, sessionId),
    'model/select': async (input) => {
      const options = await selectModel(runtime, input)
      if (input.sessionId === undefined) deps.publishStatus()
      return options
    },
    'chat/cancel': async ({ sessionId }) => {
      const { agent } = await sessions.open(sessionId)
      agent.cancel()
      return { ok: true as const }
    },

    'files/search': async ({ sessionId, query, limit }) => {
      const workspace = sessionId !== undefined ? (await sessions.open(sessionId)).workspace : requireWorkspace(runtime)
      return { workspace, ...(await fileSearch.search(workspace, query, limit)) }
    },

    'approval/pending': async () => dialogs.pending(),
    'approval/answer': async ({ requestId, outcome, note, saveTo }) => ({ ok: dialogs.answer(requestId, { outcome, note, by: 'desktop', ...(saveTo ? { saveTo } : {}) }) }),

    // Grants live in the approval service of the session's own workspace tree.
    'grants/list': async ({ sessionId }) => (await sessions.kernelOf(sessionId))?.getService('approval')?.grants(sessionId) ?? [],
    'grants/revoke': async ({ sessionId, grantId }) => {
      const approval = (await sessions.kernelOf(sessionId))?.getService('approval')
      if (!approval) return { ok: false }
      const session = sessions.isOpen(sessionId) ? await sessions.open(sessionId) : undefined
      return { ok: approval.revoke(sessionId, grantId, session ? (event) => session.log.append(event) : undefined) }
    },

    'settings/get': async () => settingsPublic(runtime),
    'permissions/list': async () => permissionsInForce(runtime),
    'settings/set': async (patch) => {
      runtime.settings.update(patch)
      if (patch.approvalMode || patch.hookConcurrency || patch.idlePromptSeconds || patch.channels) await runtime.recomposeAll()
      deps.publishStatus()
      return settingsPublic(runtime)
    },

    'models/table': async () => modelTableView(runtime.settings),
    'models/set': async ({ model, info }) => setModelInfo(runtime.settings, model, info),
    'compaction/set': async (compaction) => setCompaction(runtime.settings, compaction),

    'plugins/list': async () => runtime.plugins.list(),
    'plugins/tree': async () => runtime.plugins.tree(),
    'plugins/inspect': async ({ path }) => runtime.plugins.inspect(path),
    'plugins/install': async ({ path, force }) => runtime.plugins.install(path, { force }),
    'plugins/registry-resolve': async ({ spec }) => runtime.plugins.resolveFromRegistry(spec),
    'plugins/registry-install': async ({ spec, force }) => runtime.plugins.installFromRegistry(spec, { force }),
    'plugins/registry-update': async ({ name }) => runtime.plugins.updateFromRegistry(name),
    'plugins/registry-search': async ({ query }) => runtime.plugins.searchRegistry(query),
    'plugins/enable': async ({ name }) => {
      await runtime.plugins.setEnabled(name, true)
      return { ok: true as const }
    },
    'plugins/disable': async ({ name }) => {
      await runtime.plugins.setEnabled(name, false)
      return { ok: true as const }
    },
    'plugins/remove': async ({ name }) => {
      await runtime.plugins.remove(name)
      return { ok: true as const }
    },
    'plugins/client-entries': async () => runtime.plugins.clientEntries(deps.mode),
    'plugins/call': async ({ plugin, method, input }) => runtime.plugins.call(plugin, method, input),
    'mcp/list': async () => {
      const mcp = requireMcp(runtime)
      return { servers: mcp.servers(), warnings: mcp.warnings() }
    },
    'mcp/set-enabled': async ({ name, enabled }) => setMcpEnabled(runtime, name, enabled),
    'mcp/restart': async ({ name }) => requireMcp(runtime).restart(name),
    'config/dump': async () => runtime.plugins.dump(),
    'logs/recent': async () => runtime.logs(),

    // Checkpoints (src-main/checkpoints): read from the session's log and blob folder.
    'checkpoints/changes': async ({ sessionId, turnId }) => ({ turnId, files: await turnChanges((await sessions.open(sessionId)).log, turnId) }),
    'checkpoints/revert': async ({ sessionId, turnId, path, force, preview }) => {
      const log = await idleLog(sessions, sessionId, preview)
      return oneAtATime(log, () => revertTurn(log, turnId, path, { force, preview }))
    },
    'checkpoints/rewind': async ({ sessionId, messageSeq, force, preview }) => {
      const log = await idleLog(sessions, sessionId, preview)
      return oneAtATime(log, () => rewindTo(log, messageSeq, { force, preview }))
    },

    // Background tasks (plugins/background-tasks, and the session's log for earlier runs).
    'tasks/list': async ({ sessionId }) => {
      const session = await sessions.open(sessionId)
      return { tasks: sessionTasks(backgroundTasksOf(session.kernel), sessionId, session.log.events) }
    },
    'tasks/tail': async ({ sessionId, taskId, maxChars }) => {
      const session = await sessions.open(sessionId)
      return { text: await taskTail(backgroundTasksOf(session.kernel), sessionId, session.log.events, taskId, maxChars) }
    },
    'tasks/background': async ({ sessionId, token }) => ({ tasks: backgroundTasksOf((await sessions.open(sessionId)).kernel)?.moveToBackground(sessionId, token) ?? [] }),
    'tasks/stop': async ({ sessionId, taskId }) => ({ task: await stopTask(backgroundTasksOf((await sessions.open(sessionId)).kernel), sessionId, taskId) }),
    ...subagentHandlers(runtime)
  }
}
