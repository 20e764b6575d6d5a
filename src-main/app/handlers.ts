// Every contract method (src-shared/contract/ipc.ts), implemented on the host runtime. The
// router has validated each input before it reaches a handler.
import { builtinCommand, runBuiltinCommand } from '../agent/commands'
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
import { modelTableView, setCompaction, setModelInfo } from './model-table-view'


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
    provider: await providerPublic(runtime),
    approvalMode: runtime.approvalMode()
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
  const { approvalMode, maxParallelToolCalls, maxSteps, hookConcurrency, desktopNotifications, idlePromptSeconds } = runtime.settings.value
  return { approvalMode, maxParallelToolCalls, maxSteps, hookConcurrency, desktopNotifications, idlePromptSeconds }
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

function requireWorkspace(runtime: HostRuntime): string {
  const workspace = runtime.workspace()
  if (!workspace) throw Object.assign(new Error('Choose a workspace folder first.'), { code: 'NO_WORKSPACE' })
  return workspace
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const { runtime, dialogs } = deps
  const sessions = runtime.sessions
  return {
    'app/status': () => status(runtime, deps.mode),

    'workspace/choose': async () => {
      if (!deps.chooseDirectory) throw Object.assign(new Error('No native folder picker in web mode: type the folder path.'), { code: 'UNSUPPORTED' })
      return { path: await deps.chooseDirectory() }
    },
    'workspace/set': async ({ path }) => {
      let workspace: string
      try {
        workspace = HostRuntime.checkWorkspace(path)
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
    'sessions/create': async ({ title }) => {
      const session = await sessions.create(requireWorkspace(runtime), title)
      return { id: session.log.id }
    },
    'sessions/open': async ({ id }) => {
      const session = await sessions.open(id)
      return { id, events: session.log.snapshot(), state: { sessionId: id, ...session.agent.state }, warnings: [...(session.log.warnings ?? [])] }
    },
    'sessions/rename': async ({ id, title }) => {
      await sessions.rename(id, title)
      return { ok: true as const }
    },
    'sessions/delete': async ({ id }) => {
      await sessions.delete(id)
      return { ok: true as const }
    },

    'chat/send': async ({ sessionId, content, images }) => {
      const { agent, model } = await sessions.open(sessionId)
      // Refused before anything is logged: the composer keeps the message and its images.
      if (images?.length && !acceptsImages(runtime, model.model)) {
        throw Object.assign(
          new Error(`${model.model} does not accept images: choose a model that does in the model picker, or remove the images. The message was not sent.`),
          { code: 'NO_VISION', field: 'images' }
        )
      }
      if (images?.length) return agent.send(content, 'user', images)
      // `/compact [instructions]` compacts the session instead of going to the model; prompts sent meanwhile wait for it.
      const command = builtinCommand(content)
      if (command) {
        void runBuiltinCommand(agent, command)
        return { queued: 'turn' as const }
      }
      return agent.send(content, 'user')
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

    'approval/pending': async () => dialogs.pending(),
    'approval/answer': async ({ requestId, outcome, note }) => ({ ok: dialogs.answer(requestId, { outcome, note, by: 'desktop' }) }),

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
      if (patch.approvalMode || patch.hookConcurrency || patch.idlePromptSeconds) await runtime.recomposeAll()
      deps.publishStatus()
      return settingsPublic(runtime)
    },

    'models/table': async () => modelTableView(runtime.settings),
    'models/set': async ({ model, info }) => setModelInfo(runtime.settings, model, info),
    'compaction/set': async (compaction) => setCompaction(runtime.settings, compaction),

    'plugins/list': async () => runtime.plugins.list(),
    'plugins/inspect': async ({ path }) => runtime.plugins.inspect(path),
    'plugins/install': async ({ path, force }) => runtime.plugins.install(path, { force }),
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
    'logs/recent': async () => runtime.logs()
  }
}
