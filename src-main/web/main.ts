// Entry of web mode (`npm run web`, out/main/web.js): the Host in plain Node, serving the built
// renderer and the WebSocket transport. Prints the URL once listening.
import '../app/zod-jitless' // first: before any module builds a schema
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../app/host'
import { describeUncaught, installProcessGuards } from '../app/process-guards'
import { readWebConfig } from './config'
import { startWebServer } from './server'
import { createAccessGate, newAccessToken } from './access'
import { onStopSignal } from '../app/stop-signals'
import { exitWhenDrained } from '../app/process-exit'
import { killWatchedGroups } from '../process/guarded-spawn'
import { keepWasmOnBaselineCompiler } from '../app/wasm-tier'

keepWasmOnBaselineCompiler()
let running: Host | undefined
// Logged on stderr and in the host log (the UI's log view); the host keeps serving.
installProcessGuards({
  report(kind, error) {
    running?.runtime.kernel.log({ level: 'error', plugin: 'host', message: `${kind}: ${describeUncaught(error, false)}`, detail: describeUncaught(error, true), time: Date.now() })
  }
})

async function main(): Promise<void> {
  const config = readWebConfig(process.env)
  const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url))
  const host = await createHost({ mode: 'web' })
  running = host
  const accessToken = process.env.SEAM_WEB_TOKEN || newAccessToken()
  let server: Awaited<ReturnType<typeof startWebServer>>
  try {
    server = await startWebServer({
      core: host,
      port: config.port,
      host: config.host,
      extraOrigins: config.extraOrigins,
      rendererDir,
      resolvePluginFile: host.resolvePluginFile,
      access: createAccessGate(accessToken)
    })
  } catch (error) {
    await host.close().catch(() => {})
    throw error
  }
  if (config.host !== '127.0.0.1' && config.host !== 'localhost' && config.host !== '::1') {
    console.warn(`Warning: listening on ${config.host}; anyone who can reach it can drive the agent and its tools.`)
  }
  // The token is the key to this UI (and so to the agent's shell): it is printed once, here.
  console.log(`Seam web UI: ${server.url}/?token=${accessToken}`)

  // A stop signal closes the server, then the host (running turns cancelled, hooks, tools and MCP
  // servers stopped, session logs flushed); the exit status is the signal's (130, 143, 129).
  const signals = onStopSignal(
    () => {
      void (async () => {
        let clean = true
        try {
          await server.close()
          await host.close()
        } catch (error) {
          clean = false
          console.error('Seam web host did not close cleanly:', error)
        }
        signals.dispose()
        // What outlived the host's clean close (a tool's background job) goes before we exit.
        killWatchedGroups()
        // Exits even if something is still open (a client's keep-alive socket): the host is stopped.
        await exitWhenDrained(clean ? (signals.exitCode ?? 0) : 1)
      })()
    },
    { log: (message) => console.error(`Seam web host: ${message}`) }
  )
}

main().catch((error: unknown) => {
  console.error(`Seam web host failed to start: ${error instanceof Error ? error.message : String(error)}`)
  void exitWhenDrained(1)
})
