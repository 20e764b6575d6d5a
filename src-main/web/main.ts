// Entry of web mode (`npm run web`, out/main/web.js): the Host in plain Node, serving the built
// renderer and the WebSocket transport. Prints the URL once listening.
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../app/host'
import { describeUncaught, installProcessGuards } from '../app/process-guards'
import { readWebConfig } from './config'
import { startWebServer } from './server'
import { createAccessGate, newAccessToken } from './access'

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

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`${signal} again: exiting now.`)
      process.exit(1)
    }
    stopping = true
    void (async () => {
      try {
        await server.close()
        await host.close()
        process.exit(0)
      } catch (error) {
        console.error('Seam web host did not close cleanly:', error)
        process.exit(1)
      }
    })()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(`Seam web host failed to start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
