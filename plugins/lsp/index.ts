// @seam/lsp: runs the LSP servers of enabled Claude Code plugins (`.lsp.json`, `lspServers`) as
// Claude Code does: each starts on the first use of a file it serves, documents are kept in sync on
// Read, Edit and Write, the `LSP` tool asks them about code, and new diagnostics after an Edit or
// Write reach the model. See README.md.
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { definePlugin, type AgentHandle, type Disposable, type LspStatusService } from '@seam/sdk'
import { defaultKeyGuard, resolveToolPath } from '@seam/sdk/node'
import { diagnosticsBlock, newDiagnostics } from './diagnostics'
import { LspManager } from './manager'
import type { LanguageServer, PublishedDiagnostics } from './server'
import type { Diagnostic } from 'vscode-languageserver-protocol/node.js'
import { lspTool } from './tool'

export const LspConfigSchema = z
  .object({
    /** Waiting for a server to answer `initialize`, when its `.lsp.json` gives no `startupTimeout`. */
    startupTimeoutMs: z.number().int().positive().default(30_000),
    /** Waiting for `shutdown` before the process group is killed, when it gives no `shutdownTimeout`. */
    shutdownTimeoutMs: z.number().int().positive().default(5_000),
    /** Restarts after crashes with `restartOnCrash`, when it gives no `maxRestarts`. */
    maxRestarts: z.number().int().min(0).default(3),
    /** How long an Edit or Write waits for the server's first diagnostics of the file it changed. */
    diagnosticsTimeoutMs: z.number().int().positive().default(2_000),
    /** After a publication without new diagnostics, how long to wait for a later one (servers publish per kind of check). */
    diagnosticsSettleMs: z.number().int().positive().default(500)
  })
  .strict()
  .prefault({})

/** The tools whose calls open or change a file the servers should hear of. */
const READS = new Set(['Read'])
const WRITES = new Set(['Edit', 'Write', 'MultiEdit'])
const NOTICE_SOURCE = 'lsp'

export default definePlugin({
  name: 'lsp',
  schema: LspConfigSchema,
  inject: ['workspace', 'tools'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const listeners = new Set<() => void>()
    const manager = new LspManager({
      workspace: workspace.root ?? process.cwd(),
      childEnv: () => (ctx.maybe('keys') ?? defaultKeyGuard).childEnv(process.env),
      startupTimeoutMs: config.startupTimeoutMs,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      maxRestarts: config.maxRestarts,
      changed: () => {
        for (const listener of [...listeners]) listener()
      },
      log: (level, message) => ctx.logger[level](message)
    })
    const sessions = new Map<string, AgentHandle>()
    /** A server that fails is told once per session: the notice names the plugin and the server. */
    const told = new Set<string>()
    const tell = (sessionId: string, error: Error) => {
      const key = `${sessionId}\0${error.message}`
      if (told.has(key)) return
      told.add(key)
      sessions.get(sessionId)?.notify('error', error.message, NOTICE_SOURCE)
      ctx.logger.error(error.message)
    }
    /** The file synced with its server (started first if idle); a failure is a notice, then thrown. */
    const synced = async (server: LanguageServer, file: string, sessionId: string) => {
      try {
        return await server.sync(file)
      } catch (error) {
        tell(sessionId, error as Error)
        throw error
      }
    }

    let offered: Disposable[] = []
    const offer = () => {
      for (const dispose of offered) dispose()
      offered = []
      if (!manager.configured) return
      offered.push(ctx.tools.register(lspTool(manager, async (server, file, sessionId) => (await synced(server, file, sessionId)).uri)))
      offered.push(
        ctx.on('tools/post-execute', async (call, result, verdict, next) => {
          const decision = await next()
          if (result.isError || verdict.outcome !== 'allowed' || decision.action !== 'accept') return decision
          if (!READS.has(call.name) && !WRITES.has(call.name)) return decision
          const path = call.args.file_path
          if (typeof path !== 'string') return decision
          const file = resolveToolPath(call.cwd, path)
          const server = manager.serverFor(file)
          if (server === undefined) return decision
          // A Read opens the file with its server without waiting for it (the server may still be starting).
          if (READS.has(call.name)) {
            synced(server, file, call.sessionId).catch(() => undefined)
            return decision
          }
          try {
            const before = server.published(pathToFileURL(file).href)
            const sent = await synced(server, file, call.sessionId)
            if (!sent.sent) return decision
            const fresh = await freshDiagnostics(server, sent.uri, before, config)
            if (fresh.length === 0) return decision
            return { ...decision, additionalContext: [...(decision.additionalContext ?? []), diagnosticsBlock(file, call.cwd, fresh)] }
          } catch {
            // The failure is a notice already; the edit itself stands.
            return decision
          }
        })
      )
    }

    const load = async () => {
      const plugins = workspace.root === null ? [] : (ctx.maybe('claudePlugins')?.list(workspace.root) ?? [])
      await manager.replace(plugins)
      offer()
    }
    void load().catch((error: Error) => ctx.logger.error(`LSP: loading the plugins' servers failed: ${error.message}`))
    ctx.effect(() => ctx.maybe('claudePlugins')?.onChange(() => void load().catch((error: Error) => ctx.logger.error(`LSP: applying the plugins' servers failed: ${error.message}`))) ?? (() => {}))
    ctx.effect(() => () => {
      for (const dispose of offered) dispose()
      void manager.stopAll()
    })

    ctx.on('agent/session-start', (agent) => {
      if (agent.subagent !== undefined) return
      sessions.set(agent.sessionId, agent)
      for (const warning of manager.warnings) agent.notify('warn', `LSP: ${warning}`, NOTICE_SOURCE)
    })
    ctx.on('agent/session-end', async (agent) => {
      if (agent.subagent !== undefined || !sessions.delete(agent.sessionId)) return
      for (const key of [...told]) if (key.startsWith(`${agent.sessionId}\0`)) told.delete(key)
      // The servers stop with the last session; the next one starts them again on first use.
      if (sessions.size === 0) await manager.stopAll()
    })

    ctx.provide('lspServers', {
      status: () => manager.status(),
      onChange(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      }
    } satisfies LspStatusService)
  }
})

/**
 * The diagnostics of `uri` that are new since `before`: the first publication after the change is
 * awaited (up to `diagnosticsTimeoutMs`); one with nothing new is followed by the next for up to
 * `diagnosticsSettleMs` (servers such as typescript-language-server publish syntax, then semantic
 * checks), and the wait ends at the first one that has something new.
 */
async function freshDiagnostics(server: LanguageServer, uri: string, before: PublishedDiagnostics, config: { diagnosticsTimeoutMs: number; diagnosticsSettleMs: number }): Promise<Diagnostic[]> {
  let seen = before.seq
  let wait = config.diagnosticsTimeoutMs
  for (;;) {
    const next = await server.nextDiagnostics(uri, seen, wait)
    if (next === undefined) return []
    const fresh = newDiagnostics(before.items, next.items)
    if (fresh.length > 0) return fresh
    seen = next.seq
    wait = config.diagnosticsSettleMs
  }
}
